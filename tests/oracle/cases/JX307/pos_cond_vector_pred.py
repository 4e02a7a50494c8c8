# oracle: raises TypeError: Pred must be a scalar
import jax.numpy as jnp
from jax import lax

mask = jnp.array([True, False])
lax.cond(mask, lambda: 1.0, lambda: 2.0)  # error: JX307
