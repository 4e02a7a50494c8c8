# oracle: raises ValueError: INVALID_ARGUMENT: Invalid buffer passed to Execute()
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnums=0)
def update(params, grads):
    return params - 0.1 * grads


def train(params, batches):
    params = update(params, batches[0])
    candidate = update(params, batches[1])
    return float(candidate.sum()) + float(params.sum())  # error: JX603


train(jnp.ones(4), [jnp.ones(4), jnp.ones(4)])
