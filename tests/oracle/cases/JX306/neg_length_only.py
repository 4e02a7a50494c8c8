# oracle: runs
from jax import lax

lax.scan(lambda c, x: (c + 1, None), 0, None, length=4)
