# oracle: raises TypeError: cond branches must have equal output types
import jax.numpy as jnp
from jax import lax

lax.cond(False, lambda: 1, lambda: jnp.float32(2.0))  # error: JX304
