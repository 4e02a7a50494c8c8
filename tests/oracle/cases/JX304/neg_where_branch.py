# oracle: runs
import jax.numpy as jnp
from jax import lax

lax.cond(False, lambda v: jnp.where(v > 0, v, 0.0), lambda v: v, jnp.ones(3))
