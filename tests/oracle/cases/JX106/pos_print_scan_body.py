# oracle: stdout carry JitTracer(
import jax.numpy as jnp
from jax import lax


def body(carry, v):
    carry = carry + v
    print("carry", carry)  # error: JX106
    return carry, carry


lax.scan(body, jnp.float32(0.0), jnp.arange(3.0))
