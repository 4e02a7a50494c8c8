# oracle: stdout traces after 3 and 6 steps: 1 1
import equinox as eqx
import jax
import jax.numpy as jnp

traces = []


def train_step(model, x, y):
    traces.append(1)

    def loss_fn(model):
        return jnp.mean((jax.vmap(model)(x) - y) ** 2)

    grads = eqx.filter_grad(loss_fn)(model)
    return jax.tree.map(lambda p, g: p - 0.05 * g, model, grads)


model = eqx.nn.Linear(8, 1, key=jax.random.key(0))
loader = [(jnp.ones((16, 8)), jnp.zeros((16, 1)))] * 6
counts = []
for x, y in loader:
    model = eqx.filter_jit(train_step)(model, x, y)
    counts.append(len(traces))
print("traces after 3 and 6 steps:", counts[2], counts[5])
