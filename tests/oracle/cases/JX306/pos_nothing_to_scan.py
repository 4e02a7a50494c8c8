# oracle: raises ValueError: scan got no values to scan over and `length` not provided
from jax import lax

lax.scan(lambda c, x: (c + 1, None), 0, None)  # error: JX306
