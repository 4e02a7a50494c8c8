# oracle: raises ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected
import jax
import jax.numpy as jnp


def peak(x):
    top = x.max().item()  # error: JX102
    return x / top


jax.jit(peak)(jnp.arange(1.0, 4.0))
