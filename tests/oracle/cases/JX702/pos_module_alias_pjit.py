# oracle: raises DeprecationWarning: jax.experimental.pjit.pjit has been deprecated
import warnings

import jax.numpy as jnp
from jax.experimental import pjit as pjit_lib

warnings.simplefilter("error", DeprecationWarning)
TRAIN = {"lr": 0.1}


def make_update(lr):
    def update(w, g):
        return w - lr * g

    return pjit_lib.pjit(update)  # error: JX702


update = make_update(TRAIN["lr"])
print(update(jnp.ones(3), jnp.ones(3)))
