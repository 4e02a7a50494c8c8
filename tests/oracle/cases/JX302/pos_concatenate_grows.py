# oracle: raises TypeError: scan body function carry input and carry output must have equal types
import jax.numpy as jnp
from jax import lax

lax.fori_loop(0, 3, lambda i, acc: jnp.concatenate([acc, jnp.ones(1)]), jnp.zeros(1))  # error: JX302
