# oracle: raises ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected
import jax
import jax.numpy as jnp


@jax.jit
def as_python(x: jax.Array):
    values = x.tolist()  # error: JX102
    return jnp.asarray(values)


as_python(jnp.arange(3.0))
