# oracle: raises TypeError: scan body function carry input and carry output must have equal types
from typing import NamedTuple

import jax.numpy as jnp
from jax import lax


class Buffer(NamedTuple):
    data: jnp.ndarray
    count: jnp.ndarray


def body(i, buf):
    return Buffer(jnp.concatenate([buf.data, buf.data]), buf.count + 1)


lax.fori_loop(0, 3, body, Buffer(jnp.zeros(2), jnp.int32(0)))  # error: JX302
