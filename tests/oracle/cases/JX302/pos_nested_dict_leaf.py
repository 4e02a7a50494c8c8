# oracle: raises TypeError: scan body function carry input and carry output must have equal types
import jax.numpy as jnp
from jax import lax


def body(i, state):
    return {"w": state["w"], "hist": jnp.concatenate([state["hist"], state["w"]])}


lax.fori_loop(0, 2, body, {"w": jnp.ones(2), "hist": jnp.zeros(2)})  # error: JX302
