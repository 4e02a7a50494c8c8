# oracle: raises TypeError: cond branches must have equal output types
import jax.numpy as jnp
from jax import lax

lax.cond(True, lambda: 1.5, lambda: jnp.float16(2.0))  # error: JX304
