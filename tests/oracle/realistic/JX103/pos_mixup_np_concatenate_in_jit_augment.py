# oracle: raises TracerArrayConversionError: The numpy.ndarray conversion method __array__() was called on traced array
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class Batch(NamedTuple):
    images: jax.Array
    labels: jax.Array


def mixup(batch: Batch, key, alpha=0.2):
    lam = jax.random.beta(key, alpha, alpha)
    perm = jax.random.permutation(key, batch.images.shape[0])  # error: JX602
    images = lam * batch.images + (1 - lam) * batch.images[perm]
    labels = lam * batch.labels + (1 - lam) * batch.labels[perm]
    return Batch(images, labels)


def augment(batch: Batch, key):
    mixed = mixup(batch, key)
    images = np.concatenate([batch.images, mixed.images], axis=0)  # error: JX103
    labels = jnp.concatenate([batch.labels, mixed.labels], axis=0)
    return Batch(jnp.asarray(images), labels)


@jax.jit
def preprocess(batch, key):
    return augment(batch, key)


batch = Batch(jnp.ones((4, 2, 2)), jax.nn.one_hot(jnp.arange(4) % 2, 2))
out = preprocess(batch, jax.random.PRNGKey(0))
print(out.images.shape)
