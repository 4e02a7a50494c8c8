# oracle: raises TypeError: cond branches must have equal output types
import jax.numpy as jnp
from jax import lax


def keep(state):
    return {"w": state["w"], "n": state["n"]}


def bump(state):
    return {"w": state["w"], "n": state["n"] + 0.5}


lax.cond(True, keep, bump, {"w": jnp.ones(2), "n": jnp.int32(0)})  # error: JX304
