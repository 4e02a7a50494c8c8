# oracle: runs
import jax
import jax.numpy as jnp


def loss_with_metrics(w, xs, ys):
    logits = xs @ w
    loss = jnp.mean((logits - ys) ** 2)
    return loss, {"accuracy": jnp.mean((logits > 0) == (ys > 0)), "logits": logits}


@jax.jit
def step(w, xs, ys):
    (loss, metrics), grads = jax.value_and_grad(loss_with_metrics, has_aux=True)(w, xs, ys)
    return w - 0.1 * grads, loss, metrics


print(step(jnp.zeros(3), jnp.ones((16, 3)), jnp.ones(16))[1])
