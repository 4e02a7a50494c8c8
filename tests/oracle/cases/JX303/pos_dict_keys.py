# oracle: raises TypeError: scan body function carry input and carry output must have the same pytree structure
import jax.numpy as jnp
from jax import lax


def body(i, state):
    return {"w": state["w"], "b": state["w"]}


lax.fori_loop(0, 2, body, {"w": jnp.ones(2)})  # error: JX303
