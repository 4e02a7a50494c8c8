# oracle: stdout tracing with shape (3,) float32 1 3
import jax
import jax.numpy as jnp


@jax.jit
def double(x):
    print("tracing with shape", x.shape, x.dtype, x.ndim, len(x))
    return x * 2.0


double(jnp.arange(3.0))
