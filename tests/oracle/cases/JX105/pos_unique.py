# oracle: raises ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected
import jax
import jax.numpy as jnp


@jax.jit
def distinct_labels(labels: jax.Array):
    return jnp.unique(labels)  # error: JX105


distinct_labels(jnp.array([1, 2, 2, 3]))
