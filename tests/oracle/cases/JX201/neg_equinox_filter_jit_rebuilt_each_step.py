# oracle: stdout traces after 4 batches: 1
import equinox as eqx
import jax
import jax.numpy as jnp

traces = []


def loss_fn(model, x, y):
    return jnp.mean((jax.vmap(model)(x) - y) ** 2)


def train_step(model, x, y):
    traces.append(1)
    grads = eqx.filter_grad(loss_fn)(model, x, y)
    return jax.tree.map(lambda p, g: p - 0.05 * g, model, grads)


def fit(model, batches):
    for x, y in batches:
        model = eqx.filter_jit(train_step)(model, x, y)
    return model


model = eqx.nn.Linear(4, 1, key=jax.random.key(0))
fit(model, [(jnp.ones((8, 4)), jnp.zeros((8, 1)))] * 4)
print("traces after 4 batches:", len(traces))
