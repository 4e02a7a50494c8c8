# oracle: stdout dispatch overhead per step measured
from time import perf_counter

import jax
import jax.numpy as jnp


@jax.jit
def empty_step(params, batch):
    pass  # nothing is computed: the loop below times dispatch on purpose


params, batch = jnp.ones(8), jnp.ones((4, 8))
empty_step(params, batch)
t0 = perf_counter()
for _ in range(100):
    empty_step(params, batch)
per_step = (perf_counter() - t0) / 100
print("dispatch overhead per step measured", per_step > 0)
