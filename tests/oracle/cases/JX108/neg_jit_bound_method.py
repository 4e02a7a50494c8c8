# oracle: runs
import jax
import jax.numpy as jnp


class Model:
    def __init__(self, w):
        self.w = w
        self.apply = jax.jit(self._apply)

    def _apply(self, x):
        return x * self.w


Model(jnp.float32(2.0)).apply(jnp.arange(3.0))
