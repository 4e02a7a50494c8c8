# oracle: runs
import jax.numpy as jnp
from jax import lax

lax.cond(True, lambda: 1.0, lambda: jnp.float32(2))
