# oracle: raises TracerIntegerConversionError: The __index__() method was called on traced array
import operator

import jax
import jax.numpy as jnp


@jax.jit
def best_name(scores):
    names = ["a", "b", "c"]
    k = operator.index(jnp.argmax(scores))  # error: JX102
    return names[k]


best_name(jnp.array([0.1, 0.7, 0.2]))
