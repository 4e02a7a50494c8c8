# oracle: raises TracerBoolConversionError: Attempted boolean conversion of traced array
import jax
import jax.numpy as jnp


@jax.checkpoint
def block(x):
    h = jnp.tanh(x)
    if h.mean() > 0.5:  # error: JX101
        h = h * 0.5
    return h


block(jnp.arange(3.0))
