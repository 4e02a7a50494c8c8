# oracle: stdout same jitter every batch: True
import jax
import jax.numpy as jnp


class Jitter:
    def __init__(self, seed, scale):
        self.key = jax.random.key(seed)
        self.scale = scale

    def __call__(self, batch):
        return batch + self.scale * jax.random.normal(self.key, batch.shape)  # error: JX602


def augmented(batches, scale):
    jitter = Jitter(0, scale)
    for batch in batches:
        yield jitter(batch) - batch


deltas = list(augmented([jnp.zeros(3), jnp.ones(3)], 0.1))
print("same jitter every batch:", bool(jnp.allclose(deltas[0], deltas[1])))
