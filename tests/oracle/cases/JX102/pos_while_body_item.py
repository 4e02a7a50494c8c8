# oracle: raises ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected
import jax.numpy as jnp
from jax import lax


def keep_going(state):
    return state[0] < 3


def step(state):
    i, total = state
    bonus = total.item()  # error: JX102
    return i + 1, total + bonus


lax.while_loop(keep_going, step, (0, jnp.float32(1.0)))
