# oracle: runs
import jax
import jax.numpy as jnp


def example_loss(params, x, y):
    return jnp.mean((x @ params - y) ** 2)


# `y` is passed by keyword: in_axes covers the positional arguments only, and keywords map over axis 0.
losses = jax.vmap(example_loss, in_axes=(None, 0))(jnp.ones((4, 2)), jnp.ones((16, 4)), y=jnp.zeros((16, 2)))
print(losses.shape)
