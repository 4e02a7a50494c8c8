# oracle: stdout kept 3
from dataclasses import dataclass

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class PruneConfig:
    keep_ratio: float = 0.5


def hard_example_loss(per_example, cfg):
    k = int(per_example.shape[0] * cfg.keep_ratio)
    top, _ = jax.lax.top_k(per_example, k)
    print("kept", k)
    return top.mean()


def make_loss(cfg):
    @jax.jit
    def loss_fn(w, x, y):
        per_example = (x @ w - y) ** 2
        return hard_example_loss(per_example, cfg)

    return loss_fn


loss_fn = make_loss(PruneConfig())
print(loss_fn(jnp.ones(2), jnp.arange(12.0).reshape(6, 2), jnp.zeros(6)))
