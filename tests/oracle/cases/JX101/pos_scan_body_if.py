# oracle: raises TracerBoolConversionError: Attempted boolean conversion of traced array
import jax.numpy as jnp
from jax import lax


def body(carry, v):
    if v > carry:  # error: JX101
        carry = v
    return carry, carry


lax.scan(body, jnp.float32(0.0), jnp.arange(3.0))
