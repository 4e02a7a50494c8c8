# oracle: raises ValueError: Jitted function has static_argnums=(0, 3), but only accepts 3 positional arguments.
from functools import partial

import jax
import jax.numpy as jnp


class Trainer:
    """`self` is the first positional parameter of the decorated function, so `decay` is 2."""

    def __init__(self, lr):
        self.lr = lr

    @partial(jax.jit, static_argnums=(0, 3))  # error: JX111
    def run(self, params, decay):
        return params - self.lr * decay * params


print(Trainer(0.1).run(jnp.ones(3), 2))
