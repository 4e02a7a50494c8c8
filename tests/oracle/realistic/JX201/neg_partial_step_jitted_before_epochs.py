# oracle: stdout traces after 3 and 6 epochs: 1 1
import dataclasses
import functools

import jax
import jax.numpy as jnp

traces = []


@dataclasses.dataclass(frozen=True)
class OptimConfig:
    lr: float = 0.1
    weight_decay: float = 1e-4


def train_step(params, batch, cfg):
    traces.append(1)
    x, y = batch
    grads = jax.grad(lambda p: jnp.mean((x @ p - y) ** 2))(params)
    return params - cfg.lr * (grads + cfg.weight_decay * params)


def fit(params, loader, cfg, num_epochs):
    counts = []
    step_fn = jax.jit(functools.partial(train_step, cfg=cfg))
    for epoch in range(num_epochs):
        for batch in loader:
            params = step_fn(params, batch)
        counts.append(len(traces))
    return params, counts


loader = [(jnp.ones((8, 4)), jnp.zeros((8, 1)))] * 4
params, counts = fit(jnp.zeros((4, 1)), loader, OptimConfig(), num_epochs=6)
print("traces after 3 and 6 epochs:", counts[2], counts[5])
