# oracle: raises TypeError: scan body function carry input and carry output must have the same pytree structure
import jax.numpy as jnp
from jax import lax

lax.fori_loop(0, 3, lambda i, c: (c, c), jnp.zeros(3))  # error: JX303
