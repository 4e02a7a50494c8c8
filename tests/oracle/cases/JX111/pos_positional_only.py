# oracle: raises ValueError: Jitted function has invalid argnames {'activation'} in static_argnames. These are
import jax
import jax.numpy as jnp


def layer(x, activation, /):
    return jnp.tanh(x) if activation == "tanh" else x


layer_jit = jax.jit(layer, static_argnames="activation")  # error: JX111
print(layer_jit(jnp.ones(3), "tanh"))
