# oracle: raises TypeError: cond branches must have equal output types
import jax.numpy as jnp
from jax import lax

x = jnp.ones(3)
lax.cond(True, lambda v: v, lambda v: v.astype(jnp.float16), x)  # error: JX304
