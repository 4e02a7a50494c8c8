# oracle: stdout compiles after 3 and 6 steps: 1 1
import dataclasses
from typing import NamedTuple

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class TrainConfig:
    start_batch: int = 8
    max_batch: int = 256
    ramp: int = 8


class Batch(NamedTuple):
    x: jax.Array
    y: jax.Array
    mask: jax.Array


def batch_size_at(step, cfg):
    return min(cfg.max_batch, cfg.start_batch + step * cfg.ramp)


def load_batch(data, targets, size, cfg):
    mask = jnp.arange(cfg.max_batch) < size
    return Batch(data[: cfg.max_batch], targets[: cfg.max_batch], mask)


@jax.jit
def train_step(w, batch):
    def loss_fn(w):
        err = jnp.sum((batch.x @ w - batch.y) ** 2, axis=-1)
        return jnp.sum(jnp.where(batch.mask, err, 0.0)) / jnp.sum(batch.mask)

    return w - 0.05 * jax.grad(loss_fn)(w)


cfg = TrainConfig()
data, targets = jnp.ones((1024, 16)), jnp.zeros((1024, 1))
w = jnp.zeros((16, 1))
compiles = []
for step in range(6):
    batch = load_batch(data, targets, batch_size_at(step, cfg), cfg)
    w = train_step(w, batch)
    compiles.append(train_step._cache_size())
print("compiles after 3 and 6 steps:", compiles[2], compiles[5])
