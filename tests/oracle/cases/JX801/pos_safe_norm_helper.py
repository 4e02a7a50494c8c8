# oracle: stdout gradient has NaN: True
import jax
import jax.numpy as jnp


def safe_norm(v):
    squared = jnp.sum(v * v, axis=-1)
    return jnp.where(squared > 0, jnp.sqrt(squared), 0.0)  # error: JX801


def loss(points):
    return jnp.mean(safe_norm(points))


points = jnp.array([[3.0, 4.0], [0.0, 0.0]])
print("norms:", safe_norm(points))
grads = jax.grad(loss)(points)
print("gradient has NaN:", bool(jnp.isnan(grads).any()))
