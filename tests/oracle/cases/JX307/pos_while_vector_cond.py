# oracle: raises TypeError: cond_fun must return a boolean scalar
import jax.numpy as jnp
from jax import lax

lax.while_loop(lambda c: c < 10.0, lambda c: c * 2, jnp.ones(3))  # error: JX307
