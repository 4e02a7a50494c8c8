# oracle: runs
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def write_block(buf, block, start):
    return lax.dynamic_update_slice(buf, block, (start,))


write_block(jnp.zeros(5), jnp.ones(2), 1)
