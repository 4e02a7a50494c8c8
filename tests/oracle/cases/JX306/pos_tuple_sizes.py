# oracle: raises ValueError: scan got values with different leading axis sizes
import jax.numpy as jnp
from jax import lax

lax.scan(lambda c, x: (c + x[0] * x[1], None), 0.0, (jnp.ones(3), jnp.ones(4)))  # error: JX306
