# oracle: raises TypeError: Gradient only defined for scalar-output functions. Output had shape: (1, 1).
import jax
import jax.numpy as jnp


class LinearModel:
    def __init__(self, lr):
        self.lr = lr

    def loss(self, w, xs, ys):
        residual = xs @ w - ys
        return jnp.sum(residual**2, keepdims=True) / xs.shape[0]

    def update(self, w, xs, ys):
        grads = jax.grad(self.loss)(w, xs, ys)  # error: JX110
        return w - self.lr * grads


model = LinearModel(0.01)
print(model.update(jnp.zeros((3, 1)), jnp.ones((10, 3)), jnp.ones((10, 1))))
