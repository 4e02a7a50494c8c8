# oracle: raises NonConcreteBooleanIndexError: Array boolean indices must be concrete
import jax
import jax.numpy as jnp


@jax.jit
def zero_negatives(x):
    return x.at[x < 0].set(0.0)  # error: JX105


zero_negatives(jnp.array([1.0, -2.0, 3.0]))
