# oracle: raises RuntimeError: Array has been deleted
import functools

import jax
import jax.numpy as jnp


@jax.jit
def apply_model(params, x):
    return jax.nn.relu(x @ params["w1"]) @ params["w2"]


@functools.partial(jax.jit, donate_argnums=0)
def train_step(params, x, y):
    grads = jax.grad(lambda p: jnp.mean((apply_model(p, x) - y) ** 2))(params)
    return jax.tree.map(lambda p, g: p - 0.01 * g, params, grads)


params = {"w1": jnp.ones((3, 16)), "w2": jnp.ones((16, 1))}
predict = functools.partial(apply_model, params)
x, y = jnp.ones((4, 3)), jnp.zeros((4, 1))
for _ in range(3):
    params = train_step(params, x, y)
print("val prediction:", predict(x)[0])  # error: JX603
