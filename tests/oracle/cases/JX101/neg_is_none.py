# oracle: runs
import jax
import jax.numpy as jnp


@jax.jit
def affine(x, bias=None):
    y = x * 2.0
    if bias is None:
        return y
    if bias is not None and len(bias) == len(x):
        y = y + bias
    return y


affine(jnp.arange(3.0))
affine(jnp.arange(3.0), jnp.ones(3))
