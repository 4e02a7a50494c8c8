# oracle: raises TypeError: Shapes must be 1D sequences of concrete values of integer type
import jax
import jax.numpy as jnp


def expand(count):
    return jnp.zeros(count).sum()  # error: JX104


jax.vmap(expand)(jnp.array([1, 2, 3]))
