# oracle: raises AttributeError: module 'jax' has no attribute 'xla_computation'
import jax
import jax.numpy as jnp


def model(params, x):
    return jnp.tanh(x @ params["w"] + params["b"])


def dump_hlo(fn, *args):
    return jax.xla_computation(fn)(*args).as_hlo_text()  # error: JX703


params = {"w": jnp.ones((3, 2)), "b": jnp.zeros(2)}
print(len(dump_hlo(model, params, jnp.ones((4, 3)))))
