# oracle: stdout traces after 3 epochs: 1
import jax
import jax.numpy as jnp

traces = []


def train_step(params, x, y):
    traces.append(1)
    grads = jax.grad(lambda p: jnp.mean((x @ p - y) ** 2))(params)
    return params - 0.1 * grads


def make_train_step():
    return jax.jit(train_step)


params = jnp.zeros((4, 1))
for epoch in range(3):
    step = make_train_step()
    params = step(params, jnp.ones((8, 4)), jnp.ones((8, 1)))
print("traces after 3 epochs:", len(traces))
