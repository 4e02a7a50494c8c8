# oracle: runs
import jax.numpy as jnp
from jax import lax


def body(carry, v):
    carry = carry + v
    local_log = [carry]
    return carry, local_log[0]


final, trajectory = lax.scan(body, jnp.float32(0.0), jnp.arange(3.0))
trajectory[-1] * 2.0
