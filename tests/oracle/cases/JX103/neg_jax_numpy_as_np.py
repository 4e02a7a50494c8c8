# oracle: runs
import jax
import jax.numpy as np


@jax.jit
def softmax(x):
    e = np.exp(x - x.max())
    return np.asarray(e / np.sum(e))


softmax(np.arange(3.0))
