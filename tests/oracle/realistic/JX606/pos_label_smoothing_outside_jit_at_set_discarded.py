# oracle: stdout targets [[0. 1. 0.]
import jax
import jax.numpy as jnp
import optax


def smooth_labels(onehot, eps):
    num_classes = onehot.shape[-1]
    smoothed = onehot * (1.0 - eps) + eps / num_classes
    onehot.at[...].set(smoothed)  # error: JX606
    return onehot


def make_targets(labels, num_classes, eps=0.1):
    onehot = jax.nn.one_hot(labels, num_classes)
    return smooth_labels(onehot, eps)


@jax.jit
def loss_fn(logits, targets):
    return optax.softmax_cross_entropy(logits, targets).mean()


targets = make_targets(jnp.array([1, 2]), 3)
print("targets", targets)
print(loss_fn(jnp.zeros((2, 3)), targets))
