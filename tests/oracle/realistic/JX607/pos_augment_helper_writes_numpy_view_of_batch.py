# oracle: raises ValueError: assignment destination is read-only
import jax
import jax.numpy as jnp
import numpy as np


def cutout(images, rng, size=2):
    host = np.asarray(images)
    for i in range(host.shape[0]):
        y, x = rng.integers(0, host.shape[1] - size, size=2)
        host[i, y : y + size, x : x + size] = 0.0  # error: JX607
    return host


@jax.jit
def normalize(images):
    return (images - images.mean()) / (images.std() + 1e-6)


class DataPipeline:
    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)

    def next_batch(self, raw):
        images = normalize(raw)
        return cutout(images, self.rng)


pipeline = DataPipeline()
batch = pipeline.next_batch(jnp.arange(2 * 5 * 5, dtype=jnp.float32).reshape(2, 5, 5))
print(batch.shape)
