# oracle: stdout shape: (1500, 1500)
import time

import jax
import jax.numpy as jnp

matmul = jax.jit(lambda a: a @ a)
a = jnp.ones((1500, 1500))

start = time.perf_counter()
host = jax.device_get(matmul(a))
elapsed = time.perf_counter() - start
print("shape:", host.shape)
