# oracle: runs
import jax
import jax.numpy as jnp


@jax.jit
def count_positive(x):
    n = (x > 0).sum().astype(jnp.float32)
    idx = jnp.int32(jnp.argmax(x))
    as_float = jnp.asarray(x, dtype=jnp.float32)
    return as_float * n, idx


count_positive(jnp.arange(3.0))
