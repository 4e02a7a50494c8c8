# oracle: runs
import jax
import jax.numpy as jnp


class Tools:
    @staticmethod
    def tree_map(fn, tree):
        return {key: fn(value) for key, value in tree.items()}


def tree_leaves(tree):
    return list(tree.values())


tools = Tools()
params = tools.tree_map(jnp.abs, {"w": -jnp.ones(2)})
print(len(tree_leaves(params)), jax.tree.leaves(params)[0])
