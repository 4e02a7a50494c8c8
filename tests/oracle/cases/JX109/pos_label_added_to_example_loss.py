# oracle: raises ValueError: vmap in_axes must be an int, None, or a tuple of entries corresponding to the positional
import jax
import jax.numpy as jnp


def example_loss(params, x, y):
    pred = jnp.tanh(x @ params["w"] + params["b"])
    return jnp.mean((pred - y) ** 2)


def per_example_losses(params, xs, ys):
    # `y` was added to the loss later; its in_axes entry was not.
    return jax.vmap(example_loss, in_axes=(None, 0))(params, xs, ys)  # error: JX109


params = {"w": jnp.ones((4, 2)), "b": jnp.zeros(2)}
print(per_example_losses(params, jnp.ones((16, 4)), jnp.zeros((16, 2))))
