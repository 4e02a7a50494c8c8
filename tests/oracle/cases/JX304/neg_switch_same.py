# oracle: runs
import jax.numpy as jnp
from jax import lax

lax.switch(2, [lambda v: v * 2, lambda v: v - 1, lambda v: jnp.exp(v)], jnp.ones(4))
