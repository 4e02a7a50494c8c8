# oracle: runs
from jax import lax

lax.fori_loop(0, 3, lambda i, c: c + 0.5, 0)
