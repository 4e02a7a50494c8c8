# oracle: raises TypeError: scan body function carry input and carry output must have the same pytree structure
import jax.numpy as jnp
from jax import lax


def body(i, opt):
    return {"mu": opt["mu"] * 0.9}


lax.fori_loop(0, 3, body, {"mu": jnp.zeros(3), "nu": jnp.zeros(3)})  # error: JX303
