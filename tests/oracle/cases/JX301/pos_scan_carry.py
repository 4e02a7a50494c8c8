# oracle: raises TypeError: scan body function carry input and carry output must have equal types
import jax.numpy as jnp
from jax import lax


def step(carry, x):
    return carry.astype(jnp.int32), x


lax.scan(step, jnp.zeros(2), jnp.arange(5))  # error: JX301
