# oracle: raises ImportError: cannot import name 'tree_structure' from 'jax'
import jax.numpy as jnp
from jax import jit, tree_structure as structure_of, tree_unflatten  # error: JX701


@jit
def normalize(batch):
    return (batch - batch.mean()) / (batch.std() + 1e-6)


def same_layout(a, b):
    return structure_of(a) == structure_of(b)


print(same_layout({"x": normalize(jnp.arange(4.0))}, {"x": jnp.ones(4)}))
