# oracle: raises ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected
from typing import NamedTuple

import jax
import jax.numpy as jnp


class ReplayBuffer(NamedTuple):
    obs: jax.Array
    valid: jax.Array


def valid_indices(buffer: ReplayBuffer):
    (idx,) = jnp.nonzero(buffer.valid)  # error: JX105
    return idx


def sample(buffer: ReplayBuffer, key, batch_size):
    idx = valid_indices(buffer)
    picks = jax.random.choice(key, idx, (batch_size,))
    return buffer.obs[picks]


@jax.jit
def sample_batch(buffer, key):
    return sample(buffer, key, 2)


buffer = ReplayBuffer(jnp.arange(12.0).reshape(6, 2), jnp.array([1, 1, 0, 1, 0, 0], bool))
print(sample_batch(buffer, jax.random.PRNGKey(0)))
