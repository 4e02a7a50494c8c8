# oracle: raises TracerBoolConversionError: Attempted boolean conversion of traced array
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("scale",))
def rescale(x, scale):
    y = x * scale if x.mean() > 0 else -x * scale  # error: JX101
    return y


rescale(jnp.arange(3.0), scale=2.0)
