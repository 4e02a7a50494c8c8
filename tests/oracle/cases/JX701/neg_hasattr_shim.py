# oracle: runs
import jax
import jax.numpy as jnp

if hasattr(jax, "tree_map"):
    tree_map = jax.tree_map
else:
    tree_map = jax.tree_util.tree_map

state = {"mu": jnp.zeros(3), "nu": jnp.ones(3)}
print(tree_map(lambda x: x + 1, state)["nu"])
