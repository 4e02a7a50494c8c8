# oracle: stdout best
import jax
import jax.numpy as jnp


def make_train_step(lr):
    best = {"loss": jnp.inf}

    def loss_fn(w, x, y):
        return jnp.mean((x @ w - y) ** 2)

    def update_best(loss):
        best["loss"] = jnp.minimum(best["loss"], loss)

    @jax.jit
    def _step(w, x, y):
        loss, g = jax.value_and_grad(loss_fn)(w, x, y)
        return w - lr * g, loss

    def train_step(w, x, y):
        w, loss = _step(w, x, y)
        update_best(loss)
        return w

    def best_loss():
        return best["loss"]

    return train_step, best_loss


train_step, best_loss = make_train_step(0.1)
w = train_step(jnp.zeros(3), jnp.ones((4, 3)), jnp.ones(4))
print("best", best_loss() * 1.0)
