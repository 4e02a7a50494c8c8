# oracle: runs
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("num_classes",))
def distinct_labels(labels, num_classes):
    return jnp.unique(labels, size=num_classes, fill_value=-1)


distinct_labels(jnp.array([1, 2, 2, 3]), num_classes=4)
