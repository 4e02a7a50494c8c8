# oracle: runs
import jax
import jax.numpy as jnp


def penalty(weights):
    return jnp.sum(weights**2, axis=0)


# jacrev, unlike grad, accepts a vector output: one gradient row per output element.
print(jax.jacrev(penalty)(jnp.ones((3, 4))).shape)
