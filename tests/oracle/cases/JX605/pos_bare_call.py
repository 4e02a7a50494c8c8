# oracle: stdout measured less than a tenth of the compute: True
from time import perf_counter

import jax
import jax.numpy as jnp

matmul = jax.jit(lambda a: a @ a @ a)
a = jnp.ones((1500, 1500))
matmul(a).block_until_ready()

computes = []
for _ in range(3):
    start = perf_counter()
    matmul(a).block_until_ready()
    computes.append(perf_counter() - start)

dispatches = []
for _ in range(3):
    start = perf_counter()
    out = matmul(a)
    measured = perf_counter() - start  # error: JX605
    dispatches.append(measured)
    out.block_until_ready()
# The best of three of each, so a busy machine that pauses this process once does not decide it.
print("measured less than a tenth of the compute:", min(dispatches) < min(computes) / 10)
