# oracle: stdout (8, 2, 2)
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class Batch(NamedTuple):
    images: jax.Array
    labels: jax.Array


def host_flip(images):
    return np.concatenate([images, np.flip(images, axis=-1)], axis=0).astype(np.float32)


def augment(batch: Batch):
    n, h, w = batch.images.shape
    out_shape = jax.ShapeDtypeStruct((2 * n, h, w), jnp.float32)
    images = jax.pure_callback(host_flip, out_shape, batch.images)
    labels = jnp.concatenate([batch.labels, batch.labels], axis=0)
    return Batch(images, labels)


@jax.jit
def preprocess(batch):
    return augment(batch)


batch = Batch(jnp.arange(16.0).reshape(4, 2, 2), jax.nn.one_hot(jnp.arange(4) % 2, 2))
out = preprocess(batch)
print(out.images.shape)
