# oracle: raises NonConcreteBooleanIndexError: Array boolean indices must be concrete
# The mask depends on no argument, but jnp.arange(...) > 0 is still a tracer inside jit
# (a NumPy mask such as np.arange(3) > 0 would be fine).
import jax
import jax.numpy as jnp


@jax.jit
def drop_first(x):
    keep = jnp.arange(3) > 0
    return x[keep]  # error: JX105


drop_first(jnp.arange(3.0))
