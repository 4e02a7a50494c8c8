# oracle: runs
import jax.numpy as jnp

x = jnp.array([1.0, -2.0, 3.0])
positives = x[x > 0]
(idx,) = jnp.nonzero(x)
labels = jnp.unique(jnp.array([1, 1, 2]))
rows = jnp.where(x < 0)[0]
print(positives, idx, labels, rows)
