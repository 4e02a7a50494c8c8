# oracle: stdout same dropout mask every step: False
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Batch(NamedTuple):
    x: jax.Array
    y: jax.Array


def dropout(x, key, rate=0.1):
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0)


@jax.jit
def train_step(params, batch, dropout_key):
    def loss_fn(params):
        h = dropout(jax.nn.sigmoid(batch.x @ params["w1"]), dropout_key)
        return jnp.mean((h @ params["w2"] - batch.y) ** 2), h != 0

    grads, kept = jax.grad(loss_fn, has_aux=True)(params)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads), kept


key = jax.random.key(0)
key, init_key = jax.random.split(key)
params = {"w1": jax.random.normal(init_key, (8, 32)) * 0.1, "w2": jnp.zeros((32, 1))}
batch = Batch(jnp.ones((16, 8)), jnp.zeros((16, 1)))
masks = []
for step in range(4):
    key, dropout_key = jax.random.split(key)
    params, kept = train_step(params, batch, dropout_key)
    masks.append(kept)
print("same dropout mask every step:", all(bool(jnp.all(m == masks[0])) for m in masks))
