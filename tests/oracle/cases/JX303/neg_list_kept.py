# oracle: runs
import jax.numpy as jnp
from jax import lax

lax.fori_loop(0, 3, lambda i, c: [c[1], c[0]], [jnp.zeros(2), jnp.ones(2)])
