# oracle: raises ValueError: Non-hashable static arguments are not supported
import dataclasses
import functools

import jax
import jax.numpy as jnp


@dataclasses.dataclass
class OptimConfig:
    learning_rate: float = 0.1
    momentum: float = 0.9


@functools.partial(jax.jit, static_argnames=("config",))
def sgd_step(params, velocity, grads, config):
    velocity = config.momentum * velocity + grads
    return params - config.learning_rate * velocity, velocity


class Trainer:
    def __init__(self, config):
        self.config = config
        self.params = jnp.zeros(4)
        self.velocity = jnp.zeros(4)

    def step(self, grads):
        self.params, self.velocity = sgd_step(self.params, self.velocity, grads, config=self.config)  # error: JX204


trainer = Trainer(OptimConfig(learning_rate=0.05))
trainer.step(jnp.ones(4))
