# oracle: raises RuntimeError: Array has been deleted
import jax
import jax.numpy as jnp


def sgd_step(w, x, y, lr):
    grad = jax.grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - lr * grad


sgd_step = jax.jit(sgd_step, donate_argnums=0)


def fit(w, data, lr=0.05):
    trajectory = []
    for x, y in data:
        trajectory.append(w)
        w = sgd_step(w, x, y, lr)
    return w, trajectory


key = jax.random.PRNGKey(0)
xs = jax.random.normal(key, (5, 16, 3))
ys = xs @ jnp.array([1.0, -2.0, 0.5])
w, trajectory = fit(jnp.zeros(3), list(zip(xs, ys)))
path = jnp.stack(trajectory)  # error: JX603
print("distance travelled:", jnp.linalg.norm(jnp.diff(path, axis=0), axis=1).sum())
