# oracle: raises TracerBoolConversionError: Attempted boolean conversion of traced array
import jax.numpy as jnp
from jax import jit as j


@j
def safe_log(x):
    assert (x > 0).all(), "inputs must be positive"  # error: JX101
    return jnp.log(x)


safe_log(jnp.array([1.0, 2.0]))
