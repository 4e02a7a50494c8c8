# oracle: raises TypeError: scan body function carry input and carry output must have equal types
import jax.numpy as jnp
from jax import lax


def body(i, carry):
    step, stats = carry
    return step, {"m": stats["m"].astype(jnp.float16), "v": stats["v"]}


lax.fori_loop(0, 2, body, (jnp.int32(0), {"m": jnp.zeros(3), "v": jnp.ones(3)}))  # error: JX301
