# oracle: stdout True
"""Label smoothing divides by the vocabulary size minus one, a Python int read from a shape: the masked
side of the `jnp.where` has a finite gradient, unlike a division by a value the mask tests."""

import jax
import jax.numpy as jnp


def smoothed_targets(logits, labels, smoothing):
    targets = jax.nn.one_hot(labels, logits.shape[-1])
    denom = logits.shape[-1] - 1
    return jnp.where(targets == 1.0, 1.0 - smoothing, smoothing / denom)


def loss(params, x, labels):
    logits = x @ params
    targets = smoothed_targets(logits, labels, 0.1)
    return -(jax.nn.log_softmax(logits) * targets).sum()


params = jnp.ones((3, 5))
g = jax.grad(loss)(params, jnp.ones((2, 3)), jnp.array([1, 2]))
print(bool(jnp.isfinite(g).all()))
