# oracle: raises TypeError: scan body function carry input and carry output must have equal types
import jax.numpy as jnp
from jax import lax

lax.fori_loop(0, 3, lambda i, c: jnp.stack([c, c]), jnp.zeros(2))  # error: JX302
