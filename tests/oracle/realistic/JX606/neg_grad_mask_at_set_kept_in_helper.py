# oracle: stdout frozen row grad [0. 0. 0.]
import jax
import jax.numpy as jnp


def freeze_first_row(grads):
    grads["w"] = grads["w"].at[0].set(0.0)
    return grads


def loss_fn(params, x):
    return jnp.sum(x @ params["w"])


class FineTuner:
    def __init__(self, lr):
        self.lr = lr
        self.grad_fn = jax.jit(self._grads)

    def _grads(self, params, x):
        grads = jax.grad(loss_fn)(params, x)
        return freeze_first_row(grads)


tuner = FineTuner(0.1)
params = {"w": jnp.zeros((2, 3))}
grads = tuner.grad_fn(params, jnp.ones((1, 2)))
print("frozen row grad", grads["w"][0])
