# oracle: raises AttributeError: module 'jax.ops' has no attribute 'index_add'
import jax.numpy as jnp
from jax import ops

counts = jnp.zeros(5)
counts = ops.index_add(counts, 3, 1.0)  # error: JX715
