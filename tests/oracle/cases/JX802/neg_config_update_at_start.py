# oracle: stdout computed in: float64
import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402


def accumulate_in_double(values):
    return jnp.sum(values.astype(jnp.float64))


total = jax.jit(accumulate_in_double)(jnp.full(1000, 0.1))
print("computed in:", total.dtype)
