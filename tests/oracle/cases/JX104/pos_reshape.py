# oracle: raises TypeError: Shapes must be 1D sequences of concrete values of integer type
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("flatten",))
def to_rows(x, rows, flatten=False):
    y = x.reshape(rows, -1)  # error: JX104
    return y.ravel() if flatten else y


to_rows(jnp.arange(6.0), 2)
