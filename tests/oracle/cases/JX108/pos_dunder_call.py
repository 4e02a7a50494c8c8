# oracle: raises TypeError: Error interpreting argument to
import jax
import jax.numpy as jnp


class Scale:
    def __init__(self, factor):
        self.factor = factor

    @jax.jit  # error: JX108
    def __call__(self, x):
        return x * self.factor


Scale(2.0)(jnp.arange(3.0))
