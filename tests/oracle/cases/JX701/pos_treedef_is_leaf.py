# oracle: raises AttributeError: module 'jax' has no attribute 'treedef_is_leaf'
import jax


def is_single_leaf(tree):
    treedef = jax.tree_util.tree_structure(tree)
    return jax.treedef_is_leaf(treedef)  # error: JX701


print(is_single_leaf(3.0))
