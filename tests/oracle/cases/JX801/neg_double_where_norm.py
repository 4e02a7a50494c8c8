# oracle: stdout gradient has NaN: False
import jax
import jax.numpy as jnp


def safe_norm(v):
    squared = jnp.sum(v * v, axis=-1)
    nonzero = squared > 0
    safe_squared = jnp.where(nonzero, squared, 1.0)
    return jnp.where(nonzero, jnp.sqrt(safe_squared), 0.0)


def loss(points):
    return jnp.mean(safe_norm(points))


points = jnp.array([[3.0, 4.0], [0.0, 0.0]])
grads = jax.grad(loss)(points)
print("gradient has NaN:", bool(jnp.isnan(grads).any()))
