# oracle: raises DeprecationWarning: jax.experimental.pjit.pjit has been deprecated
import warnings

warnings.simplefilter("error", DeprecationWarning)

import jax.numpy as jnp
from jax.experimental.pjit import pjit  # error: JX702


@pjit
def loss_fn(w, x):
    return jnp.mean((x @ w) ** 2)


print(loss_fn(jnp.ones((3, 2)), jnp.ones((4, 3))))
