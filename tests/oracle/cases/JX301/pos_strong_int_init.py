# oracle: raises TypeError: scan body function carry input and carry output must have equal types
import jax.numpy as jnp
from jax import lax

total = lax.fori_loop(0, 3, lambda i, c: c + 0.5, jnp.int32(0))  # error: JX301
