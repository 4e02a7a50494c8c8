# oracle: stdout confidence
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx


class Net(nnx.Module):
    def __init__(self, rngs):
        self.fc = nnx.Linear(5, 2, rngs=rngs)

    def __call__(self, x):
        return self.fc(x)


def summarize(logits, labels):
    probs = np.asarray(nnx.softmax(logits))
    correct = probs.argmax(-1) == np.asarray(labels)
    return {"confidence": float(probs.max(axis=-1).mean()), "acc": float(correct.mean())}


@nnx.jit
def train_step(model, optimizer, x, labels):
    def loss_fn(model):
        logits = model(x)
        return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean(), logits

    (loss, logits), grads = nnx.value_and_grad(loss_fn, has_aux=True)(model)
    optimizer.update(model, grads)
    return loss, logits


model = Net(nnx.Rngs(0))
optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
x = jnp.linspace(0.0, 1.0, 20).reshape(4, 5)
labels = jnp.array([0, 1, 1, 0])
loss, logits = train_step(model, optimizer, x, labels)
print(loss, summarize(logits, labels))
