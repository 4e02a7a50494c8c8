# oracle: raises ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected
import jax
import jax.numpy as jnp


def scale(v):
    factor = float(v * 2.0)  # error: JX102
    return v * factor


jax.vmap(scale)(jnp.arange(3.0))
