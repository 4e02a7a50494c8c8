# oracle: stdout scaled: JitTracer(
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def scale(x, factor):
    y = x * factor
    print("factor:", factor)
    print("scaled:", y)  # error: JX106
    return y


scale(jnp.arange(3.0), 2.0)
