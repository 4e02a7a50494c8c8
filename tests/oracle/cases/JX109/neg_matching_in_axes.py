# oracle: runs
import jax
import jax.numpy as jnp


def example_loss(params, x, y):
    pred = jnp.tanh(x @ params["w"] + params["b"])
    return jnp.mean((pred - y) ** 2)


def per_example_losses(params, xs, ys):
    return jax.vmap(example_loss, in_axes=(None, 0, 0))(params, xs, ys)


params = {"w": jnp.ones((4, 2)), "b": jnp.zeros(2)}
print(per_example_losses(params, jnp.ones((16, 4)), jnp.zeros((16, 2))))
