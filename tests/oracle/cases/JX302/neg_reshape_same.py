# oracle: runs
import jax.numpy as jnp
from jax import lax

lax.fori_loop(0, 3, lambda i, c: c.reshape(-1).reshape(2, 3), jnp.zeros((2, 3)))
