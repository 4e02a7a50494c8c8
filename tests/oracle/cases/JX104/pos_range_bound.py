# oracle: raises TracerIntegerConversionError: The __index__() method was called on traced array
import jax.numpy as jnp
from jax import jit


@jit
def repeat_add(x, steps: int):
    for _ in range(steps):  # error: JX104
        x = x + 1.0
    return x


repeat_add(jnp.arange(3.0), 3)
