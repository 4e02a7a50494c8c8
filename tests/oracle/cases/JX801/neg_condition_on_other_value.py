# oracle: stdout gradient has NaN: False
import jax
import jax.numpy as jnp


def gated_magnitude(x, gate):
    return jnp.where(gate > 0.5, jnp.sqrt(x * x + 1.0), 0.0)


def loss(x, gate):
    return jnp.sum(gated_magnitude(x, gate))


grads = jax.grad(loss)(jnp.array([0.0, 2.0]), jnp.array([1.0, 0.0]))
print("gradient has NaN:", bool(jnp.isnan(grads).any()))
