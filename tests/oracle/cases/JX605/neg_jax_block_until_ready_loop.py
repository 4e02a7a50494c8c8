# oracle: stdout ready when the clock stopped: True
import time

import jax
import jax.numpy as jnp

matmul = jax.jit(lambda a: a @ a)
a = jnp.ones((1500, 1500))
matmul(a).block_until_ready()

t0 = time.time()
for _ in range(5):
    result = matmul(a)
jax.block_until_ready(result)
t1 = time.time()
print("ready when the clock stopped:", result.is_ready())
