# oracle: raises AttributeError: jax.numpy.fix was deprecated in JAX v0.9.0, and will be removed in JAX v0.10.0
import jax
import jax.numpy as jnp


@jax.jit
def quantize(x, step):
    return jnp.fix(x / step) * step  # error: JX714


quantize(jnp.array([0.26, -0.74]), 0.25)
