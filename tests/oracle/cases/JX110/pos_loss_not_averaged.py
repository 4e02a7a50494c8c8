# oracle: raises TypeError: Gradient only defined for scalar-output functions. Output had shape: (32,).
import jax
import jax.numpy as jnp


def mse_loss(params, xs, ys):
    preds = xs @ params["w"] + params["b"]
    return (preds - ys) ** 2  # one loss per example: the mean was forgotten


def train_step(params, xs, ys, lr=0.1):
    grads = jax.grad(mse_loss)(params, xs, ys)  # error: JX110
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)


params = {"w": jnp.zeros(4), "b": jnp.zeros(())}
print(train_step(params, jnp.ones((32, 4)), jnp.ones(32)))
