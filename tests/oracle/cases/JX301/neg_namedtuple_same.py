# oracle: runs
from typing import NamedTuple

import jax.numpy as jnp
from jax import lax


class State(NamedTuple):
    step: jnp.ndarray
    value: jnp.ndarray


def body(i, state):
    return state._replace(step=state.step + 1, value=state.value * 2)


lax.fori_loop(0, 3, body, State(jnp.int32(0), jnp.ones(3)))
