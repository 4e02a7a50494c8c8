# oracle: stdout traces after 3 and 6 steps: 1 1
import jax
import jax.numpy as jnp
from flax import nnx

traces = []


class Classifier(nnx.Module):
    def __init__(self, rngs):
        self.body = nnx.Linear(8, 4, rngs=rngs)
        self.updates = nnx.Variable(jnp.array(0))

    def __call__(self, x):
        return self.body(x)


@nnx.jit
def train_step(model, x, y):
    traces.append(1)

    def loss_fn(model):
        return jnp.mean((model(x) - y) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    params = nnx.state(model, nnx.Param)
    nnx.update(model, jax.tree.map(lambda p, g: p - 0.1 * g, params, grads))
    return loss


model = Classifier(nnx.Rngs(0))
x, y = jnp.ones((16, 8)), jnp.zeros((16, 4))
counts = []
for step in range(6):
    loss = train_step(model, x, y)
    model.updates[...] += 1
    counts.append(len(traces))
print("traces after 3 and 6 steps:", counts[2], counts[5])
