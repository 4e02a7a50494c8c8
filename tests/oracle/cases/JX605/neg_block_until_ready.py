# oracle: stdout ready when the clock stopped: True
import time

import jax
import jax.numpy as jnp

matmul = jax.jit(lambda a: a @ a @ a)
a = jnp.ones((1500, 1500))
matmul(a).block_until_ready()

start = time.perf_counter()
result = matmul(a)
result.block_until_ready()
elapsed = time.perf_counter() - start
print("ready when the clock stopped:", result.is_ready())
