# oracle: raises RuntimeError: Array has been deleted
import jax
import jax.numpy as jnp


@jax.jit
def val_loss(params, x, y):
    return jnp.mean((x @ params["w"] - y) ** 2)


def sgd(params, x, y):
    grads = jax.grad(val_loss)(params, x, y)
    return {"w": params["w"] - 0.1 * grads["w"]}


sgd = jax.jit(sgd, donate_argnums=0)


def fit(params, x, y, x_val, y_val, epochs=6):
    best_loss, best_params = float("inf"), params
    for _ in range(epochs):
        params = sgd(params, x, y)
        loss = float(val_loss(params, x_val, y_val))
        if loss < best_loss:
            best_loss, best_params = loss, params
    return best_params


x = jnp.ones((8, 2))
best = fit({"w": jnp.zeros(2)}, x, jnp.ones(8), x, jnp.full(8, 0.6))
print(f"best w: {best['w']}")  # error: JX603
