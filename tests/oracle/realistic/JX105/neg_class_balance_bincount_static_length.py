# oracle: stdout balanced loss
import jax
import jax.numpy as jnp


def class_weights(labels, num_classes):
    counts = jnp.bincount(labels, length=num_classes)
    present = jnp.unique(labels, size=num_classes, fill_value=-1)
    num_present = (present >= 0).sum()
    weights = counts.sum() / (num_present * jnp.maximum(counts, 1))
    return weights[labels]


class BalancedLoss:
    def __init__(self, num_classes):
        self.num_classes = num_classes

    def __call__(self, logits, labels):
        logp = jax.nn.log_softmax(logits)
        nll = -jnp.take_along_axis(logp, labels[:, None], axis=-1)[:, 0]
        return jnp.mean(class_weights(labels, self.num_classes) * nll)


loss_fn = jax.jit(BalancedLoss(3))
print("balanced loss", loss_fn(jnp.zeros((5, 3)), jnp.array([0, 0, 1, 2, 2])))
