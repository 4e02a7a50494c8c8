# oracle: raises ValueError: scan got `length` argument of 5 which disagrees
import jax.numpy as jnp
from jax import lax

lax.scan(lambda c, x: (c + x, None), 0.0, jnp.ones(3), length=5)  # error: JX306
