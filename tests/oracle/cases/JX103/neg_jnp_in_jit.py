# oracle: runs
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


def body(carry, v):
    total = jnp.float32(carry + v)
    return total, jnp.sin(total)


@jax.jit
def cumulative(x):
    final, ys = lax.scan(body, jnp.float32(0.0), x)
    return jnp.where(ys > 0, ys, 0.0), jnp.dot(x, x), final


cumulative(jnp.arange(3.0))
np.testing.assert_allclose(np.array([1.0]), np.array([1.0]))
