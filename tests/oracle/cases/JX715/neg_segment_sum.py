# oracle: runs
import jax
import jax.numpy as jnp

print(jax.ops.segment_sum(jnp.ones(4), jnp.array([0, 0, 1, 1]), num_segments=2))
