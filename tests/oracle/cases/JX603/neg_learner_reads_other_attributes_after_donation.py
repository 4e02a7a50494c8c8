# oracle: stdout 1
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnums=0)
def sgd(params, grads, lr):
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)


class Learner:
    def __init__(self, lr):
        self.lr = lr
        self.steps = 0
        self.params = {"w": jnp.ones((4, 4)), "b": jnp.zeros(4)}

    def update(self, grads):
        new_params = sgd(self.params, grads, self.lr)
        self.steps += 1
        print(self.steps)
        self.params = new_params


learner = Learner(0.1)
learner.update({"w": jnp.ones((4, 4)), "b": jnp.ones(4)})
