# oracle: stdout accuracy
import jax.numpy as jnp
from flax import nnx


class Classifier(nnx.Module):
    def __init__(self, din, num_classes, rngs: nnx.Rngs):
        self.hidden = nnx.Linear(din, 16, rngs=rngs)
        self.out = nnx.Linear(16, num_classes, rngs=rngs)

    def __call__(self, x):
        return self.out(nnx.relu(self.hidden(x)))


def accuracy(logits, labels):
    correct = jnp.argmax(logits, axis=-1) == labels
    return correct.mean()


@nnx.jit
def eval_step(model, x, labels):
    logits = model(x)
    loss = -jnp.mean(jnp.take_along_axis(nnx.log_softmax(logits), labels[:, None], axis=-1))
    return {"loss": loss, "accuracy": accuracy(logits, labels)}


model = Classifier(4, 3, nnx.Rngs(0))
x = jnp.linspace(0.0, 1.0, 24).reshape(6, 4)
metrics = eval_step(model, x, jnp.array([0, 1, 2, 0, 1, 2]))
summary = {name: value.item() for name, value in metrics.items()}
print("accuracy", summary["accuracy"], "loss", round(summary["loss"], 3))
