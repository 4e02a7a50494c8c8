# oracle: raises ImportError: cannot import name 'tree_leaves' from 'jax'
import jax.numpy as jnp
from jax import tree_leaves  # error: JX701


def count_parameters(tree):
    return sum(leaf.size for leaf in tree_leaves(tree))


config = {"hidden": 16, "layers": 2}
params = {"embed": jnp.zeros((10, config["hidden"])), "head": jnp.zeros((config["hidden"], 3))}
print(count_parameters(params))
