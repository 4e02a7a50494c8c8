# oracle: raises TypeError: JAX arrays are immutable and do not support in-place item assignment
import jax.numpy as jnp
from jax import jit


@jit
def clamp_last(x):
    n = x.shape[0]
    x[n - 1] = x.sum()  # error: JX601
    return x


clamp_last(jnp.arange(3.0))
