# oracle: raises ValueError: INVALID_ARGUMENT: Invalid buffer passed to Execute()
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnums=(0,))
def apply_grads(params, grads, lr):
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)


def global_norm(tree):
    return jnp.sqrt(sum(jnp.sum(leaf**2) for leaf in jax.tree.leaves(tree)))


class Trainer:
    def __init__(self, lr):
        self.lr = lr
        self.params = {"dense": jnp.ones((16, 16)), "bias": jnp.zeros(16)}

    def step(self, x):
        grads = jax.grad(lambda p: jnp.sum(jnp.tanh(x @ p["dense"] + p["bias"])))(self.params)
        new_params = apply_grads(self.params, grads, self.lr)
        update_ratio = global_norm(grads) / global_norm(self.params)  # error: JX603
        self.params = new_params
        return update_ratio


trainer = Trainer(lr=1e-2)
print("update ratio:", trainer.step(jnp.ones((4, 16))))
