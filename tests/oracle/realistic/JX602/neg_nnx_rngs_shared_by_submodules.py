# oracle: stdout query and key projections equal: False
import jax.numpy as jnp
from flax import nnx


class SelfAttention(nnx.Module):
    def __init__(self, width, seed=0):
        rngs = nnx.Rngs(seed)
        self.query = nnx.Linear(width, width, rngs=rngs)
        self.key = nnx.Linear(width, width, rngs=rngs)
        self.value = nnx.Linear(width, width, rngs=rngs)

    def __call__(self, x):
        q, k, v = self.query(x), self.key(x), self.value(x)
        weights = nnx.softmax(q @ k.T / jnp.sqrt(x.shape[-1]), axis=-1)
        return weights @ v


layer = SelfAttention(16)
out = layer(jnp.ones((5, 16)))
print("query and key projections equal:", bool(jnp.all(layer.query.kernel[...] == layer.key.kernel[...])))
