# oracle: runs
import jax.numpy as jnp
from jax import lax

lax.scan(lambda c, x: (c + x, None), 0.0, jnp.ones(3), length=3)
