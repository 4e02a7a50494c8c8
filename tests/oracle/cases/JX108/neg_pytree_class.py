# oracle: runs
import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Linear:
    def __init__(self, w):
        self.w = w

    def tree_flatten(self):
        return (self.w,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    @jax.jit
    def apply(self, x):
        return x @ self.w


Linear(jnp.ones((3, 2))).apply(jnp.ones((1, 3)))
