# oracle: raises TypeError: JAX arrays are immutable and do not support in-place item assignment
import jax.numpy as jnp

grid = jnp.ones((2, 3))
grid[:, 0] = 0.0  # error: JX601
