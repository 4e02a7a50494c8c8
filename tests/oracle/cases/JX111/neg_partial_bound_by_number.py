# oracle: runs
from functools import partial

import jax
import jax.numpy as jnp


def apply_model(scale, params, x, activation):
    out = x @ params * scale
    return jnp.tanh(out) if activation == "tanh" else out


def make_predict(scale):
    # After the partial binds `scale`, `activation` is position 2 of the jitted function.
    return jax.jit(partial(apply_model, scale), static_argnums=2)


predict = make_predict(2.0)
print(predict(jnp.ones((3, 3)), jnp.ones(3), "tanh"))
