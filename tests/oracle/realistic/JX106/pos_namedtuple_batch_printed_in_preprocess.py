# oracle: stdout Batch(images=JitTracer(
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Batch(NamedTuple):
    images: jax.Array
    labels: jax.Array


def normalize_images(batch: Batch, mean, std):
    images = (batch.images - mean) / std
    return batch._replace(images=images)


def preprocess(batch: Batch):
    batch = normalize_images(batch, 0.5, 0.25)
    print(batch)  # error: JX106
    return batch


@jax.jit
def eval_step(w, batch: Batch):
    batch = preprocess(batch)
    logits = batch.images.reshape(batch.images.shape[0], -1) @ w
    return jnp.mean(jnp.argmax(logits, -1) == batch.labels)


eval_step(jnp.ones((4, 2)), Batch(jnp.ones((3, 2, 2)), jnp.array([0, 1, 1])))
