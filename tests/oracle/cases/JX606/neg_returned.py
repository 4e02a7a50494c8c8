# oracle: stdout total 1.0
import jax
import jax.numpy as jnp


@jax.jit
def bump(counts, i):
    return counts.at[i].add(1.0)


print("total", float(bump(jnp.zeros(4), 2).sum()))
