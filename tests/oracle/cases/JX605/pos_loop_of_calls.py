# oracle: stdout ready when the clock stopped: False
import time

import jax
import jax.numpy as jnp

matmul = jax.jit(lambda a: a @ a)
a = jnp.ones((1500, 1500))
matmul(a).block_until_ready()

t0 = time.time()
for _ in range(5):
    result = matmul(a)
t1 = time.time()  # error: JX605
ready = result.is_ready()
jax.block_until_ready(result)
print("ready when the clock stopped:", ready)
print(f"measured {(t1 - t0) * 1e3:.2f} ms of {(time.time() - t0) * 1e3:.1f} ms")
