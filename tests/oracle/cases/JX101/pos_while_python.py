# oracle: raises TracerBoolConversionError: Attempted boolean conversion of traced array
import jax.numpy as jnp
from jax import jit


@jit
def grow(x):
    while x.max() < 10.0:  # error: JX101
        x = x * 2.0
    return x


grow(jnp.array([1.0, 2.0]))
