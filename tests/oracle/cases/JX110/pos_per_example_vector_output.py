# oracle: raises TypeError: Gradient only defined for scalar-output functions. Output had shape: (2,).
import jax
import jax.numpy as jnp


def example_error(w, x, y):
    # Two regression targets per example: the error is a vector, not a loss.
    return x @ w - y


def per_example_grads(w, xs, ys):
    return jax.vmap(jax.grad(example_error), in_axes=(None, 0, 0))(w, xs, ys)  # error: JX110


w = jnp.ones((3, 2))
print(per_example_grads(w, jnp.ones((8, 3)), jnp.zeros((8, 2))))
