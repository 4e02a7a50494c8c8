# oracle: runs
from functools import partial

import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self, lr):
        self.lr = lr

    def __hash__(self):
        return hash(self.lr)

    def __eq__(self, other):
        return isinstance(other, Trainer) and other.lr == self.lr

    @partial(jax.jit, static_argnums=(0, 2))
    def run(self, params, decay):
        return params - self.lr * decay * params


print(Trainer(0.1).run(jnp.ones(3), 2))
