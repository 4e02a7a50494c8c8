# oracle: raises TypeError: Gradient only defined for scalar-output functions. Output was {
import jax
import jax.numpy as jnp


def losses(w, xs, ys):
    preds = xs @ w
    return {"mse": jnp.mean((preds - ys) ** 2), "l2": 1e-3 * jnp.sum(w**2)}


grads = jax.grad(losses)(jnp.ones(3), jnp.ones((8, 3)), jnp.zeros(8))  # error: JX110
print(grads)
