# oracle: stdout traces after 4 batches: 4
import jax.numpy as jnp
import optax
from flax import nnx

traces = []


class MLP(nnx.Module):
    def __init__(self, rngs):
        self.hidden = nnx.Linear(4, 8, rngs=rngs)
        self.out = nnx.Linear(8, 1, rngs=rngs)

    def __call__(self, x):
        return self.out(nnx.relu(self.hidden(x)))


def train_step(model, optimizer, batch):
    traces.append(1)
    x, y = batch

    def loss_fn(model):
        return jnp.mean((model(x) - y) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


class Trainer:
    def __init__(self, model, learning_rate):
        self.model = model
        self.optimizer = nnx.Optimizer(model, optax.adam(learning_rate), wrt=nnx.Param)

    def fit(self, batches):
        losses = []
        for batch in batches:
            step = nnx.jit(train_step)  # error: JX201
            losses.append(step(self.model, self.optimizer, batch))
        return losses


trainer = Trainer(MLP(nnx.Rngs(0)), 1e-3)
trainer.fit([(jnp.ones((8, 4)), jnp.zeros((8, 1)))] * 4)
print("traces after 4 batches:", len(traces))
