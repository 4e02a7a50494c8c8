# oracle: stdout compiles after 4 batches: 1
import dataclasses
import functools

import jax
import jax.numpy as jnp


@dataclasses.dataclass(eq=False)
class EvalOptions:
    temperature: float = 1.0
    top_k: int = 3


@functools.partial(jax.jit, static_argnums=2)
def score(logits, labels, options):
    _, top = jax.lax.top_k(logits / options.temperature, options.top_k)
    return jnp.mean(jnp.any(top == labels[:, None], axis=-1))


def evaluate(batches, options):
    options = dataclasses.replace(options, temperature=0.5)
    return [score(logits, labels, options) for logits, labels in batches]


evaluate([(jnp.ones((4, 10)), jnp.zeros(4, jnp.int32))] * 4, EvalOptions())
print("compiles after 4 batches:", score._cache_size())
