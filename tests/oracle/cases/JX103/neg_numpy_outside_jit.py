# oracle: runs
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def double(x):
    return x * 2.0


out = double(jnp.arange(3.0))
host = np.asarray(out)
print(np.sin(host).sum(), np.dot(host, host))
