# oracle: raises ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected
import jax
import jax.numpy as jnp


@jax.jit
def count_positive(x):
    n = int((x > 0).sum())  # error: JX102
    return x * n


count_positive(jnp.arange(3.0))
