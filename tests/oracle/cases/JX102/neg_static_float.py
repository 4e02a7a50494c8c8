# oracle: runs
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("temperature", "top_k"))
def sample_logits(logits, temperature, top_k):
    t = float(temperature)
    k = int(top_k)
    return logits[:k] / t


sample_logits(jnp.arange(5.0), temperature=0.5, top_k=2)
