# oracle: runs
import jax.numpy as jnp

try:
    from jax import tree_map
except ImportError:
    from jax.tree_util import tree_map


def scale(tree, factor):
    return tree_map(lambda leaf: leaf * factor, tree)


print(scale({"a": jnp.ones(2)}, 3.0)["a"])
