# oracle: stdout per-example loss VmapTracer(
import jax
import jax.numpy as jnp


def example_loss(w, x, y):
    loss = (jnp.dot(w, x) - y) ** 2
    print("per-example loss", loss)  # error: JX106
    return loss


def evaluate(w, xs, ys):
    return jax.vmap(example_loss, in_axes=(None, 0, 0))(w, xs, ys).mean()


for _ in range(2):
    evaluate(jnp.ones(3), jnp.ones((4, 3)), jnp.zeros(4))
