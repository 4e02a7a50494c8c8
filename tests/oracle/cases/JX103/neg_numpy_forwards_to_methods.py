# oracle: runs
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def stats(x):
    # np.sum(x) runs x.sum(): the result is a traced JAX array, nothing is converted.
    total = np.sum(x, axis=0) + np.mean(x) + np.max(x) + np.std(x)
    return np.reshape(np.transpose(x), (-1,)), np.round(total, 2), np.cumsum(x), np.argmax(x)


stats(jnp.arange(6.0).reshape(2, 3))
