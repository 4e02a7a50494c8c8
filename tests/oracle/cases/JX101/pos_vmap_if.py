# oracle: raises TracerBoolConversionError: Attempted boolean conversion of traced array
import jax
import jax.numpy as jnp


def clip_one(v):
    if v > 1.0:  # error: JX101
        return jnp.ones_like(v)
    return v


jax.vmap(clip_one)(jnp.arange(3.0))
