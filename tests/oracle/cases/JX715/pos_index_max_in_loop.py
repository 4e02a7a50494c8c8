# oracle: raises AttributeError: module 'jax.ops' has no attribute 'index_max'
import jax
import jax.numpy as jnp

best = jnp.zeros(3)
for step, score in enumerate([0.1, 0.5, 0.2]):
    best = jax.ops.index_max(best, step % 3, score)  # error: JX715
