# oracle: raises TracerBoolConversionError: Attempted boolean conversion of traced array
import jax
import jax.numpy as jnp


@jax.jit
def flip_if_negative(x):
    if x.sum() > 0:  # error: JX101
        return x
    return -x


flip_if_negative(jnp.arange(3.0))
