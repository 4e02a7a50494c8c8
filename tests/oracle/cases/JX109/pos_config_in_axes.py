# oracle: raises ValueError: vmap in_axes must be an int, None, or a tuple of entries corresponding to the positional
import jax
import jax.numpy as jnp

CONFIG = {"batch_axis": 0}
IN_AXES = [None, CONFIG["batch_axis"], CONFIG["batch_axis"]]


def apply(params, x):
    return jnp.tanh(x @ params)


def run(params, xs):
    return jax.vmap(apply, in_axes=IN_AXES)(params, xs)  # error: JX109


print(run(jnp.ones((3, 2)), jnp.ones((8, 3))))
