# oracle: runs
import jax
import jax.numpy as jnp


def sgd(params, grads, lr=0.01):
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)


params = {"w": jnp.ones(3), "b": jnp.zeros(3)}
params = sgd(params, jax.tree.map(jnp.ones_like, params))
leaves, treedef = jax.tree.flatten(params)
assert jax.tree.unflatten(treedef, leaves).keys() == params.keys()
assert jax.tree_util.treedef_is_leaf(jax.tree.structure(1.0))
