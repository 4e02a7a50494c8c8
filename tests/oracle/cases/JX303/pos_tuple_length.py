# oracle: raises TypeError: scan body function carry input and carry output must have the same pytree structure
import jax.numpy as jnp
from jax import lax

lax.fori_loop(0, 3, lambda i, c: (c[0], c[1], c[0]), (jnp.zeros(2), jnp.ones(2)))  # error: JX303
