# oracle: raises ValueError: vmap in_axes must be an int, None, or a tuple of entries corresponding to the positional
import jax
import jax.numpy as jnp


def score(query, keys, temperature):
    return jax.nn.softmax(keys @ query / temperature)


def make_batched_score():
    return jax.jit(jax.vmap(score, in_axes=(0, None)))


batched_score = make_batched_score()
queries = jnp.ones((4, 8))
keys = jnp.ones((16, 8))
print(batched_score(queries, keys, 2.0))  # error: JX109
