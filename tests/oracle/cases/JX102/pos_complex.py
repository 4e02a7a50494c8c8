# oracle: raises ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected
import jax
import jax.numpy as jnp


@jax.jit
def phase(x):
    z = complex(x[0] + 1.0)  # error: JX102
    return x * z.real


phase(jnp.arange(3.0))
