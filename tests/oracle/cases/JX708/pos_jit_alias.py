# oracle: raises TypeError: jit() takes from 0 to 1 positional arguments but 2 were given
from jax import jit as compile_fn
import jax.numpy as jnp


class Model:
    def __init__(self):
        self.apply = compile_fn(self._apply, (1,))  # error: JX708

    def _apply(self, x, depth):
        return x * depth


Model()
