# oracle: runs
import jax
import jax.numpy as jnp


def layer(params, x):
    w, b = params
    return jnp.tanh(x @ w + b)


# One entry per positional argument; the first is itself a tuple for the (w, b) pair.
params = (jnp.ones((3, 2)), jnp.zeros(2))
print(jax.vmap(layer, in_axes=((None, None), 0))(params, jnp.ones((8, 3))).shape)
