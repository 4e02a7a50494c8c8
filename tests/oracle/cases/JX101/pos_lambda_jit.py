# oracle: raises TracerBoolConversionError: Attempted boolean conversion of traced array
import jax
import jax.numpy as jnp

abs_total = jax.jit(lambda x: x.sum() if x.sum() > 0 else -x.sum())  # error: JX101

abs_total(jnp.arange(3.0))
