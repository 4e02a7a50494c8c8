# oracle: stdout ready when the clock stopped: False
import time

import jax
import jax.numpy as jnp

matmul = jax.jit(lambda a: a @ a @ a)
a = jnp.ones((1500, 1500))
matmul(a).block_until_ready()

start = time.perf_counter()
result = matmul(a)
elapsed = time.perf_counter() - start  # error: JX605
ready = result.is_ready()
result.block_until_ready()
full = time.perf_counter() - start
print("ready when the clock stopped:", ready)
print(f"measured {elapsed * 1e3:.2f} ms of {full * 1e3:.1f} ms")
