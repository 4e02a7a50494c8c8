# oracle: runs
from jax import lax

lax.scan(lambda c, _: (c + 1, c), 0, length=4)
