# oracle: raises TracerBoolConversionError: Attempted boolean conversion of traced array
import jax
import jax.numpy as jnp


def all_finite(x):
    finite = bool(jnp.isfinite(x).all())  # error: JX101
    return finite


all_finite_jit = jax.jit(all_finite)
all_finite_jit(jnp.arange(3.0))
