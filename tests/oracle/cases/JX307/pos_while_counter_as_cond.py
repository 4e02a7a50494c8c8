# oracle: raises TypeError: cond_fun must return a boolean scalar
import jax.numpy as jnp
from jax import lax


def keep_going(state):
    n, _x = state
    return n


lax.while_loop(keep_going, lambda s: (s[0] - 1, s[1] * 2), (jnp.int32(3), jnp.ones(2)))  # error: JX307
