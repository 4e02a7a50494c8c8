# oracle: stdout cat
import equinox as eqx
import jax
import jax.numpy as jnp

CLASS_NAMES = ("cat", "dog", "bird")


class Head(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(4, len(CLASS_NAMES), key=key)

    def __call__(self, x):
        return self.linear(x)


def per_class_recall(preds, labels):
    onehot = jax.nn.one_hot(labels, len(CLASS_NAMES))
    hits = (jax.nn.one_hot(preds, len(CLASS_NAMES)) * onehot).sum(0)
    return hits / jnp.maximum(onehot.sum(0), 1.0)


@eqx.filter_jit
def evaluate(model, x, labels):
    preds = jnp.argmax(jax.vmap(model)(x), axis=-1)
    return per_class_recall(preds, labels)


model = Head(jax.random.PRNGKey(0))
x = jnp.linspace(-1.0, 1.0, 24).reshape(6, 4)
recall = evaluate(model, x, jnp.array([0, 1, 2, 0, 1, 2]))
print(dict(zip(CLASS_NAMES, recall.tolist())))
