# oracle: raises TypeError: Shapes must be 1D sequences of concrete values of integer type
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def head(x: jax.Array, size: jax.Array):
    return lax.dynamic_slice(x, (0,), (size,))  # error: JX104


head(jnp.arange(5.0), jnp.int32(2))
