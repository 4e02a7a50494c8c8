# oracle: raises ValueError: scan got values with different leading axis sizes
import jax.numpy as jnp
from jax import lax


def step(c, batch):
    return c + batch["x"].sum() + batch["y"].sum(), None


xs = {"x": jnp.ones((5, 2)), "y": jnp.zeros((4, 2))}
lax.scan(step, 0.0, xs)  # error: JX306
