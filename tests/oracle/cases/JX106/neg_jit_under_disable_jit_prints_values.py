# oracle: stdout debug values [1. 1.]
import jax
import jax.numpy as jnp


@jax.jit
def update(params, grads):
    print("debug values", grads)
    return params - 0.1 * grads


with jax.disable_jit():
    update(jnp.zeros(2), jnp.ones(2))
