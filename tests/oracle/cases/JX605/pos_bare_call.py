# oracle: stdout measured less than a tenth of the compute: True
from time import perf_counter

import jax
import jax.numpy as jnp

matmul = jax.jit(lambda a: a @ a @ a)
a = jnp.ones((1500, 1500))
matmul(a).block_until_ready()

start = perf_counter()
matmul(a).block_until_ready()
compute = perf_counter() - start

start = perf_counter()
matmul(a)
measured = perf_counter() - start  # error: JX605
print("measured less than a tenth of the compute:", measured < compute / 10)
