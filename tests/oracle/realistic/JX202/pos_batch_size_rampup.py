# oracle: stdout compiles after 3 and 6 steps: 3 6
import dataclasses
from typing import NamedTuple

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class TrainConfig:
    start_batch: int = 8
    max_batch: int = 256
    ramp: int = 8
    lr: float = 0.05


class Batch(NamedTuple):
    x: jax.Array
    y: jax.Array


def batch_size_at(step, cfg):
    return min(cfg.max_batch, cfg.start_batch + step * cfg.ramp)


def load_batch(data, targets, size):
    return Batch(data[:size], targets[:size])


@jax.jit
def train_step(w, batch):
    grads = jax.grad(lambda w: jnp.mean((batch.x @ w - batch.y) ** 2))(w)
    return w - 0.05 * grads


cfg = TrainConfig()
data, targets = jnp.ones((1024, 16)), jnp.zeros((1024, 1))
w = jnp.zeros((16, 1))
compiles = []
for step in range(6):
    batch = load_batch(data, targets, batch_size_at(step, cfg))
    w = train_step(w, batch)  # error: JX202
    compiles.append(train_step._cache_size())
print("compiles after 3 and 6 steps:", compiles[2], compiles[5])
