# oracle: raises TypeError: JAX arrays are immutable and do not support in-place item assignment
import jax
import jax.numpy as jnp


def zero_first(row):
    y = jnp.sin(row)
    y[0] = 0.0  # error: JX601
    return y


jax.vmap(zero_first)(jnp.ones((2, 3)))
