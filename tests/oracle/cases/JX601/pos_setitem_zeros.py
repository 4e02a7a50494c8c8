# oracle: raises TypeError: JAX arrays are immutable and do not support in-place item assignment
import jax.numpy as jnp

buf = jnp.zeros(4)
buf[0] = 1.0  # error: JX601
