# oracle: stdout value: 2250000.0
import time

import jax
import jax.numpy as jnp

matmul = jax.jit(lambda a: a @ a)
a = jnp.ones((1500, 1500))

start = time.perf_counter()
value = float(matmul(a)[0, 0])
elapsed = time.perf_counter() - start
print("value:", value * 1500)
