# oracle: stdout per-example grad shape (3,) for batch of 2
import jax
import jax.numpy as jnp


def example_loss(w, x, y):
    return (jnp.dot(w, x) - y) ** 2


def clipped_example_grad(w, x, y, clip=1.0):
    g = jax.grad(example_loss)(w, x, y)
    norm = jnp.linalg.norm(g)
    return g * jnp.minimum(1.0, clip / (norm + 1e-6))


@jax.jit
def dp_sgd_step(w, xs, ys):
    grads = jax.vmap(clipped_example_grad, in_axes=(None, 0, 0))(w, xs, ys)
    print("per-example grad shape", grads.shape[1:], "for batch of", len(xs))
    return w - 0.1 * grads.mean(axis=0)


dp_sgd_step(jnp.ones(3), jnp.arange(6.0).reshape(2, 3), jnp.zeros(2))
