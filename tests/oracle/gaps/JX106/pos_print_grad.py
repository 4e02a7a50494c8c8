# oracle: stdout GradTracer(
import jax
import jax.numpy as jnp


def loss(w):
    value = jnp.sum(w**2)
    print("value", value)  # error: JX106
    return value


jax.grad(loss)(jnp.arange(3.0))
