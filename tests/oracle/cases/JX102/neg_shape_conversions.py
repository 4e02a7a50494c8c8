# oracle: runs
import jax
import jax.numpy as jnp


@jax.jit
def mean_by_hand(x):
    n = int(x.shape[0])
    total_size = float(x.size)
    rows = int(len(x))
    return x.sum() / n + total_size * 0.0 + rows * 0.0


mean_by_hand(jnp.arange(3.0))
