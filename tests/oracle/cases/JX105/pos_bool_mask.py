# oracle: raises NonConcreteBooleanIndexError: Array boolean indices must be concrete
import jax
import jax.numpy as jnp


@jax.jit
def positive_mean(x):
    return x[x > 0].mean()  # error: JX105


positive_mean(jnp.array([1.0, -2.0, 3.0]))
