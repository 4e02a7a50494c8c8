# oracle: raises ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected
import jax
import jax.numpy as jnp


def class_weights(labels):
    classes, counts = jnp.unique(labels, return_counts=True)  # error: JX105
    weights = counts.sum() / (classes.shape[0] * counts)
    return weights[jnp.searchsorted(classes, labels)]


class BalancedLoss:
    def __init__(self, num_classes):
        self.num_classes = num_classes

    def __call__(self, logits, labels):
        logp = jax.nn.log_softmax(logits)
        nll = -jnp.take_along_axis(logp, labels[:, None], axis=-1)[:, 0]
        return jnp.mean(class_weights(labels) * nll)


loss_fn = jax.jit(BalancedLoss(3))
print(loss_fn(jnp.zeros((5, 3)), jnp.array([0, 0, 1, 2, 2])))
