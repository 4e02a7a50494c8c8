# oracle: raises TypeError: scan body function carry input and carry output must have the same pytree structure
import jax.numpy as jnp
from jax import lax


def step(carry, x):
    a, (b, c) = carry
    return (a + x, [b, c]), x


lax.scan(step, (jnp.zeros(()), (jnp.zeros(()), jnp.zeros(()))), jnp.ones(4))  # error: JX303
