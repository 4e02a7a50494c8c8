# oracle: stdout computed in: float64
import jax
import jax.numpy as jnp

warmup = jnp.ones(3)


def enable_double_precision():
    jax.config.update("jax_enable_x64", True)


enable_double_precision()
print("computed in:", jnp.zeros(3, dtype=jnp.float64).dtype)
