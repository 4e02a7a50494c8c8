# oracle: stdout traces after 3 and 6 steps: 3 6
import jax.numpy as jnp
import optax
from flax import nnx

traces = []


def train_step(model, optimizer, x, y):
    traces.append(1)

    def loss_fn(model):
        return jnp.mean((model(x) - y) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


model = nnx.Linear(8, 1, rngs=nnx.Rngs(0))
optimizer = nnx.Optimizer(model, optax.sgd(0.05), wrt=nnx.Param)
loader = [(jnp.ones((16, 8)), jnp.zeros((16, 1)))] * 6
counts = []
for x, y in loader:
    loss = nnx.jit(train_step)(model, optimizer, x, y)  # error: JX201
    counts.append(len(traces))
print("traces after 3 and 6 steps:", counts[2], counts[5])
