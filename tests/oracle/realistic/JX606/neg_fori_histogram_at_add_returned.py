# oracle: stdout counts [1. 2. 0. 1.]
import jax
import jax.numpy as jnp
from jax import lax

NUM_BINS = 4


def bin_index(value):
    return jnp.clip((value * NUM_BINS).astype(jnp.int32), 0, NUM_BINS - 1)


def accumulate(i, counts, values):
    return counts.at[bin_index(values[i])].add(1.0)


@jax.jit
def histogram(values):
    counts = jnp.zeros(NUM_BINS)
    return lax.fori_loop(0, values.shape[0], lambda i, c: accumulate(i, c, values), counts)


print("counts", histogram(jnp.array([0.1, 0.3, 0.35, 0.9])))
