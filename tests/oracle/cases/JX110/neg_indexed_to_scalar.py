# oracle: runs
import jax
import jax.numpy as jnp


def first_unit_penalty(weights):
    return jnp.sum(weights**2, axis=0)[0]


print(jax.jit(jax.grad(first_unit_penalty))(jnp.ones((3, 4))))
