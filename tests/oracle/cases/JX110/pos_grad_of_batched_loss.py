# oracle: raises TypeError: Gradient only defined for scalar-output functions. Output had shape: (8,).
import jax
import jax.numpy as jnp


def example_loss(w, x):
    return (x @ w) ** 2


batched_loss = jax.vmap(example_loss, in_axes=(None, 0))
grads = jax.grad(batched_loss)(jnp.ones(3), jnp.ones((8, 3)))  # error: JX110
print(grads)
