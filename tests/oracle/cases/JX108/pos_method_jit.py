# oracle: raises TypeError: Error interpreting argument to
import jax
import jax.numpy as jnp


class Linear:
    def __init__(self, w):
        self.w = w

    @jax.jit  # error: JX108
    def apply(self, x):
        return x @ self.w


layer = Linear(jnp.ones((3, 2)))
layer.apply(jnp.ones((1, 3)))
