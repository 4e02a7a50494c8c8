# oracle: raises NonConcreteBooleanIndexError: Array boolean indices must be concrete
import jax
import jax.numpy as jnp


def positive_sum(shard):
    return shard[shard > 0].sum()  # error: JX105


jax.pmap(positive_sum)(jnp.arange(-4.0, 4.0).reshape(8, 1))
