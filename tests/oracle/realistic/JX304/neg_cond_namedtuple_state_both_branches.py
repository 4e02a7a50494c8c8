# oracle: stdout ema
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax


class EMAState(NamedTuple):
    mean: jax.Array
    count: jax.Array


def init_ema(dim):
    return EMAState(jnp.zeros(dim), jnp.zeros((), jnp.int32))


def first_update(state, x):
    return EMAState(x, state.count + 1)


def decayed_update(state, x, decay=0.9):
    return state._replace(mean=decay * state.mean + (1 - decay) * x, count=state.count + 1)


def ema_update(state, x):
    return lax.cond(state.count == 0, first_update, decayed_update, state, x)


@jax.jit
def track(xs):
    state = init_ema(xs.shape[1])
    for i in range(xs.shape[0]):
        state = ema_update(state, xs[i])
    return state.mean


print("ema", track(jnp.arange(6.0).reshape(3, 2)))
