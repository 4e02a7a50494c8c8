# oracle: runs
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def host_sort(x):
    return jax.pure_callback(lambda v: np.sort(np.asarray(v)), jax.ShapeDtypeStruct(x.shape, x.dtype), x)


print(host_sort(jnp.array([3.0, 1.0, 2.0])))
