# oracle: runs
import jax.numpy as jnp
from jax import lax

x = jnp.ones(3)
lax.cond(x.sum() > 0, lambda v: v, lambda v: -v, x)
