# oracle: raises TypeError: Pred must be a scalar
import jax.numpy as jnp
from jax import lax

x = jnp.ones(3)
lax.cond(x > 0, lambda v: v, lambda v: -v, x)  # error: JX307
