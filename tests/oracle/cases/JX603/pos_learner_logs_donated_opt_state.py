# oracle: raises RuntimeError: Array has been deleted
import functools
from typing import NamedTuple

import jax
import jax.numpy as jnp


class OptState(NamedTuple):
    velocity: jax.Array
    count: jax.Array


@functools.partial(jax.jit, donate_argnums=(0, 1))
def momentum_update(params, opt_state, grads):
    velocity = 0.9 * opt_state.velocity + grads
    return params - 0.01 * velocity, OptState(velocity, opt_state.count + 1)


class Learner:
    def __init__(self, dim):
        self.params = jnp.ones(dim)
        self.opt_state = OptState(jnp.zeros(dim), jnp.zeros((), jnp.int32))
        self.history = []

    def update(self, grads):
        params, opt_state = momentum_update(self.params, self.opt_state, grads)
        self.history.append(float(jnp.linalg.norm(self.opt_state.velocity)))  # error: JX603
        self.params, self.opt_state = params, opt_state


learner = Learner(8)
learner.update(jnp.ones(8))
print(learner.history)
