# oracle: runs
import jax.numpy as jnp
from jax import lax

lax.cond(jnp.int32(1), lambda: 1.0, lambda: 2.0)
