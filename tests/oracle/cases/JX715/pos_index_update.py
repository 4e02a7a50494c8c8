# oracle: raises AttributeError: module 'jax.ops' has no attribute 'index_update'
import jax
import jax.numpy as jnp


def reset_rows(buffer, rows):
    return jax.ops.index_update(buffer, jax.ops.index[rows], 0.0)  # error: JX715


reset_rows(jnp.ones((4, 2)), jnp.array([0, 2]))
