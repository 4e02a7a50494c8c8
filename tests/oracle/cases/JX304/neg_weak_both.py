# oracle: runs
from jax import lax

lax.cond(True, lambda: 1.0, lambda: 2.5)
