# oracle: runs
import jax.numpy as jnp
from jax import lax


def body(i, state):
    return {"b": state["b"] + 1, "a": state["a"]}


lax.fori_loop(0, 2, body, {"a": jnp.ones(2), "b": jnp.zeros(2)})
