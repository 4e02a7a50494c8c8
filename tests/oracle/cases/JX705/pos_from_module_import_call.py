# oracle: raises ModuleNotFoundError: No module named 'jax.experimental.host_callback'
import numpy as np
from jax.experimental.host_callback import call  # error: JX705


def host_sort(x):
    return call(np.sort, x, result_shape=x)
