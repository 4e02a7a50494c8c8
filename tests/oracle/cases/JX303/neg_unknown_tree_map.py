# oracle: runs
import jax
import jax.numpy as jnp
from jax import lax


def body(i, c):
    return jax.tree_util.tree_map(lambda v: v * 2, c)


lax.fori_loop(0, 3, body, {"a": jnp.ones(2), "b": (jnp.zeros(2), jnp.ones(1))})
