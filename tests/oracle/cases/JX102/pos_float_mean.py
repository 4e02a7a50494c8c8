# oracle: raises ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected
import jax.numpy as jnp
from jax import jit


@jit
def centered(x):
    mean = float(x.mean())  # error: JX102
    return x - mean


centered(jnp.arange(3.0))
