# oracle: stdout updated
import jax
import jax.numpy as jnp
import numpy as np


def global_norm(grads):
    return jnp.sqrt(sum(np.sum(g**2) for g in jax.tree.leaves(grads)))


class SGDTrainer:
    def __init__(self, lr, max_norm):
        self.lr = lr
        self.max_norm = max_norm
        self.update = jax.jit(self._update)

    def loss(self, params, x, y):
        h = jnp.tanh(x @ params["w1"])
        return np.mean((h @ params["w2"] - y) ** 2)

    def _update(self, params, x, y):
        grads = jax.grad(self.loss)(params, x, y)
        scale = jnp.minimum(1.0, self.max_norm / (global_norm(grads) + 1e-6))
        return jax.tree.map(lambda p, g: p - self.lr * scale * g, params, grads)


trainer = SGDTrainer(lr=0.1, max_norm=1.0)
params = {"w1": jnp.ones((3, 4)) * 0.1, "w2": jnp.ones((4, 1)) * 0.1}
params = trainer.update(params, jnp.ones((2, 3)), jnp.ones((2, 1)))
print("updated", params["w2"].ravel())
