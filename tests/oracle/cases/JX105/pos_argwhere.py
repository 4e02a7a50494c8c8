# oracle: raises ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected
import jax.numpy as jnp
from jax import jit


@jit
def positions(grid):
    return jnp.argwhere(grid > 0)  # error: JX105


positions(jnp.eye(2))
