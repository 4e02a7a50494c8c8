# oracle: runs
import jax.numpy as jnp
from jax import lax

lax.cond(True, lambda v: v + jnp.zeros((2, 3)), lambda v: jnp.ones((2, 3)), jnp.ones(3))
