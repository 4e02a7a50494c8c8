# oracle: stdout traces after 4 batches: 1
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


def fit(model, optimizer, batches):
    step = nnx.jit(train_step)
    return [step(model, optimizer, x, y) for x, y in batches]


model = nnx.Linear(4, 1, rngs=nnx.Rngs(0))
optimizer = nnx.Optimizer(model, optax.sgd(0.05), wrt=nnx.Param)
fit(model, optimizer, [(jnp.ones((8, 4)), jnp.zeros((8, 1)))] * 4)
print("traces after 4 batches:", len(traces))
