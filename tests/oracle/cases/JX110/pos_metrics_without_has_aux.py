# oracle: raises TypeError: Gradient only defined for scalar-output functions. Output was (
import jax
import jax.numpy as jnp


def loss_with_metrics(w, xs, ys):
    logits = xs @ w
    loss = jnp.mean((logits - ys) ** 2)
    accuracy = jnp.mean((logits > 0) == (ys > 0))
    return loss, accuracy


@jax.jit
def step(w, xs, ys):
    (loss, accuracy), grads = jax.value_and_grad(loss_with_metrics)(w, xs, ys)  # error: JX110
    return w - 0.1 * grads, loss, accuracy


print(step(jnp.zeros(3), jnp.ones((16, 3)), jnp.ones(16)))
