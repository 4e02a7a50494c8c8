# oracle: raises TypeError: scan body function carry input and carry output must have equal types
from typing import NamedTuple

import jax.numpy as jnp
from jax import lax


class State(NamedTuple):
    step: jnp.ndarray
    value: jnp.ndarray


def body(i, state):
    return state._replace(value=state.value * jnp.float16(2))


def run():
    return lax.fori_loop(0, 3, body, State(jnp.int32(0), jnp.ones(3, dtype=jnp.int32)))  # error: JX301


run()
