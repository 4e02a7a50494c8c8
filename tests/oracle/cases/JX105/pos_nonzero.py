# oracle: raises ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected
import jax
import jax.numpy as jnp


@jax.jit
def active_indices(x):
    (idx,) = jnp.nonzero(x > 1.0)  # error: JX105
    return idx


active_indices(jnp.arange(4.0))
