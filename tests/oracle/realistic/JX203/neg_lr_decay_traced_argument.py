# oracle: stdout compiles after 3 and 6 steps: 1 1
import functools
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Batch(NamedTuple):
    x: jax.Array
    y: jax.Array


def loss_fn(params, batch):
    pred = batch.x @ params["w"] + params["b"]
    return jnp.mean((pred - batch.y) ** 2)


@functools.partial(jax.jit, static_argnames="clip")
def train_step(params, batch, lr, clip):
    grads = jax.grad(loss_fn)(params, batch)
    grads = jax.tree.map(lambda g: jnp.clip(g, -clip, clip), grads)
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)


def learning_rate(step, base_lr=0.1, decay=0.9):
    return base_lr * decay**step


params = {"w": jnp.zeros((4, 1)), "b": jnp.zeros(1)}
batch = Batch(jnp.ones((8, 4)), jnp.ones((8, 1)))
compiles = []
for step in range(6):
    params = train_step(params, batch, lr=learning_rate(step), clip=1.0)
    compiles.append(train_step._cache_size())
print("compiles after 3 and 6 steps:", compiles[2], compiles[5])
