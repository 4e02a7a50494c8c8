# oracle: runs
import jax
import jax.numpy as jnp


def example_loss(w, x, y):
    return jnp.sum((x @ w - y) ** 2)


def per_example_grads(w, xs, ys):
    return jax.vmap(jax.grad(example_loss), in_axes=(None, 0, 0))(w, xs, ys)


w = jnp.ones((3, 2))
print(per_example_grads(w, jnp.ones((8, 3)), jnp.zeros((8, 2))).shape)
