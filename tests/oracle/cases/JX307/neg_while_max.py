# oracle: runs
import jax.numpy as jnp
from jax import lax

lax.while_loop(lambda c: c.max() < 10.0, lambda c: c * 2, jnp.ones(3))
