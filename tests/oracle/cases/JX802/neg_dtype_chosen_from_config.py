# oracle: stdout computed in: float32
import jax
import jax.numpy as jnp

DTYPE = jnp.float64 if jax.config.read("jax_enable_x64") else jnp.float32


def initial_state(size):
    return jnp.zeros(size, dtype=DTYPE)


print("computed in:", initial_state(4).dtype)
