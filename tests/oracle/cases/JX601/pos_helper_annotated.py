# oracle: raises TypeError: JAX arrays are immutable and do not support in-place item assignment
import jax
import jax.numpy as jnp


def clear_row(m: jax.Array, i: int) -> jax.Array:
    m[i, :] = 0.0  # error: JX601
    return m


clear_row(jnp.eye(3), 1)
