# oracle: raises TracerBoolConversionError: Attempted boolean conversion of traced array
import jax
import jax.numpy as jnp


def threshold(x, cutoff):
    out = x
    if x.min() < cutoff:  # error: JX101
        out = jnp.maximum(x, cutoff)
    return out


threshold_jit = jax.jit(threshold, static_argnums=1)
threshold_jit(jnp.arange(3.0), 1.0)
