# oracle: raises UnexpectedTracerError: Encountered an unexpected tracer
import jax.numpy as jnp
from jax import lax

trajectory = []


def body(carry, v):
    carry = carry + v
    trajectory.append(carry)  # error: JX107
    return carry, v


lax.scan(body, jnp.float32(0.0), jnp.arange(3.0))
trajectory[-1] * 2.0
