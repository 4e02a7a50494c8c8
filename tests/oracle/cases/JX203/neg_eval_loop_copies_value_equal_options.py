# oracle: stdout compiles after 4 batches: 1
import dataclasses
import functools

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class EvalOptions:
    temperature: float = 1.0
    top_k: int = 3


@functools.partial(jax.jit, static_argnums=2)
def score(logits, labels, options):
    _, top = jax.lax.top_k(logits / options.temperature, options.top_k)
    return jnp.mean(jnp.any(top == labels[:, None], axis=-1))


def evaluate(batches, options):
    scores = []
    for logits, labels in batches:
        options = dataclasses.replace(options)
        scores.append(score(logits, labels, options))
    return scores


evaluate([(jnp.ones((4, 10)), jnp.zeros(4, jnp.int32))] * 4, EvalOptions())
print("compiles after 4 batches:", score._cache_size())
