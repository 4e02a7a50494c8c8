# oracle: raises TracerBoolConversionError: Attempted boolean conversion of traced array
import jax
import jax.numpy as jnp


@jax.jit
def first_or_zero(x):
    if not jnp.any(x > 1.0):  # error: JX101
        return jnp.zeros_like(x)
    return x


first_or_zero(jnp.arange(3.0))
