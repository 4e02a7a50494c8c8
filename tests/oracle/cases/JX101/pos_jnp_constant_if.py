# oracle: raises TracerBoolConversionError: Attempted boolean conversion of traced array
# Inside jit every jnp.* result is staged out, even one built only from constants.
import jax
import jax.numpy as jnp


@jax.jit
def scale(x):
    threshold = jnp.array(0.5)
    if threshold > 0:  # error: JX101
        x = x * threshold
    return x


scale(jnp.arange(3.0))
