# oracle: stdout traces after 3 and 6 epochs: 1 1
import dataclasses
import functools

import jax
import jax.numpy as jnp

traces = []


@dataclasses.dataclass(frozen=True)
class EvalConfig:
    num_classes: int = 4
    top_k: int = 2


def eval_step(params, x, labels, cfg):
    traces.append(1)
    logits = x @ params
    _, top = jax.lax.top_k(logits, cfg.top_k)
    return jnp.mean(jnp.any(top == labels[:, None], axis=-1))


def make_eval_fn(cfg):
    return jax.jit(functools.partial(eval_step, cfg=cfg))


cfg = EvalConfig()
params = jnp.zeros((8, cfg.num_classes))
x, labels = jnp.ones((32, 8)), jnp.zeros(32, jnp.int32)
eval_fn = make_eval_fn(cfg)
counts = []
for epoch in range(6):
    params = params + 0.01 * jnp.arange(cfg.num_classes)
    top_k_accuracy = eval_fn(params, x, labels)
    counts.append(len(traces))
print("traces after 3 and 6 epochs:", counts[2], counts[5])
