# oracle: runs
from typing import NamedTuple

import jax.numpy as jnp
from jax import lax


class State(NamedTuple):
    x: jnp.ndarray
    n: jnp.ndarray


def body(i, s):
    return State(s.x * 2, s.n + 1)


lax.fori_loop(0, 3, body, State(jnp.ones(2), jnp.int32(0)))
