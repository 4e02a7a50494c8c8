# oracle: raises AttributeError: jax.lax.pvary was deprecated in JAX v0.8.2 and removed in JAX v0.10.0
import jax.numpy as jnp
from jax import lax

AXES = ("data",)


class Layer:
    def __call__(self, x):
        return lax.pvary(x, AXES)  # error: JX713


Layer()(jnp.ones(2))
