# oracle: raises ValueError: vmap was requested to map its argument along axis 1, which implies that its rank
import jax
import jax.numpy as jnp


def weighted_error(pred, target, weight):
    return weight * jnp.sum((pred - target) ** 2)


# Columns are examples in `preds` and `targets`, but `weights` is one entry per example.
preds = jnp.ones((3, 8))
targets = jnp.zeros((3, 8))
weights = jnp.ones(8)
errors = jax.vmap(weighted_error, in_axes=(1, 1, 1))(preds, targets, weights)  # error: JX109
print(errors)
