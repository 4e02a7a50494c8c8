# oracle: raises TypeError: JAX arrays are immutable and do not support in-place item assignment
import jax
import jax.numpy as jnp


@jax.jit
def reset_first(x: jax.Array):
    x[0] = 0.0  # error: JX601
    return x


reset_first(jnp.arange(3.0))
