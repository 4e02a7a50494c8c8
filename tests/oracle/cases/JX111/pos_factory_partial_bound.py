# oracle: raises ValueError: Jitted function has invalid argnames {'config'} in static_argnames
from functools import partial

import jax
import jax.numpy as jnp


def apply_model(config, params, x):
    return jnp.tanh(x @ params) * config["scale"]


def make_predict(config):
    # `config` is bound by the partial, so the jitted function no longer has it.
    return jax.jit(partial(apply_model, config), static_argnames=("config",))  # error: JX111


predict = make_predict({"scale": 2.0})
print(predict(jnp.ones((3, 3)), jnp.ones(3)))
