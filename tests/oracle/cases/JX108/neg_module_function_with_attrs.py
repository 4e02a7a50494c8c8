# oracle: runs
import jax
import jax.numpy as jnp


@jax.jit
def _linear(w, x):
    return x @ w


class Linear:
    def __init__(self, w):
        self.w = w

    def apply(self, x):
        return _linear(self.w, x)


Linear(jnp.ones((3, 2))).apply(jnp.ones((1, 3)))
