# oracle: stdout loss is 5.0
import jax
import jax.numpy as jnp


def report(v):
    print("loss is", float(v))


@jax.jit
def loss(w):
    value = jnp.sum(w**2)
    jax.debug.callback(report, value)
    return value


loss(jnp.arange(3.0))
