# oracle: runs
import jax
import jax.numpy as jnp


def weighted_error(pred, target, weight):
    return weight * jnp.sum((pred - target) ** 2)


preds = jnp.ones((3, 8))
targets = jnp.zeros((3, 8))
weights = jnp.ones(8)
print(jax.vmap(weighted_error, in_axes=(-1, -1, 0))(preds, targets, weights))
