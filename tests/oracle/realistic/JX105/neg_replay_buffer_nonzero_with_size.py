# oracle: stdout (2, 2)
from typing import NamedTuple

import jax
import jax.numpy as jnp


class ReplayBuffer(NamedTuple):
    obs: jax.Array
    valid: jax.Array


def valid_indices(buffer: ReplayBuffer):
    capacity = buffer.valid.shape[0]
    (idx,) = jnp.nonzero(buffer.valid, size=capacity, fill_value=0)
    return idx, buffer.valid.sum()


def sample(buffer: ReplayBuffer, key, batch_size):
    idx, count = valid_indices(buffer)
    slots = jax.random.randint(key, (batch_size,), 0, count)
    return buffer.obs[idx[slots]]


@jax.jit
def sample_batch(buffer, key):
    return sample(buffer, key, 2)


buffer = ReplayBuffer(jnp.arange(12.0).reshape(6, 2), jnp.array([1, 1, 0, 1, 0, 0], bool))
print(sample_batch(buffer, jax.random.PRNGKey(0)).shape)
