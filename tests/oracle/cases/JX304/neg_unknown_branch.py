# oracle: runs
import jax
import jax.numpy as jnp
from jax import lax

lax.cond(True, jax.nn.relu, lambda v: v, jnp.ones(3))
