# oracle: runs
import jax
import jax.numpy as jnp
import numpy as np


def host_sin(v):
    return np.sin(np.asarray(v)).astype(np.float32)


@jax.jit
def wave(x):
    spec = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.pure_callback(host_sin, spec, x) * 2.0


wave(jnp.arange(3.0))
