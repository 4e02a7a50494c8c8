# oracle: runs
import jax
import jax.numpy as jnp


def score(query, keys, temperature):
    return jax.nn.softmax(keys @ query / temperature)


def batched(*inputs):
    # How many arguments arrive is not visible here.
    return jax.vmap(score, in_axes=(0, None, None))(*inputs)


print(batched(jnp.ones((4, 8)), jnp.ones((16, 8)), 2.0).shape)
