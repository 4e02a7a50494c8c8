# oracle: raises AttributeError: module 'jax' has no attribute 'tree_flatten'
import jax as jx
import jax.numpy as jnp


class Checkpointer:
    def __init__(self):
        self.saved = []

    def save(self, state):
        leaves, treedef = jx.tree_flatten(state)  # error: JX701
        self.saved.append((treedef, [jnp.asarray(leaf) for leaf in leaves]))


Checkpointer().save({"step": 3, "opt": (jnp.ones(2), jnp.zeros(2))})
