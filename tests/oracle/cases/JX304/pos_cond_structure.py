# oracle: raises TypeError: cond branch outputs must have the same pytree structure
import jax.numpy as jnp
from jax import lax

lax.cond(True, lambda x: (x, x), lambda x: [x, x], jnp.ones(2))  # error: JX304
