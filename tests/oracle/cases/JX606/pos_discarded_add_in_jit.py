# oracle: stdout total 0.0
import jax
import jax.numpy as jnp


@jax.jit
def bump(counts, i):
    counts.at[i].add(1.0)  # error: JX606
    return counts


print("total", float(bump(jnp.zeros(4), 2).sum()))
