# oracle: stdout params: [0.9 0.9]
import jax
import jax.numpy as jnp


def init_buffers(params):
    zeros = jnp.zeros_like(params)
    return {"momentum": zeros, "variance": zeros}


@jax.jit
def update(params, buffers, grads):
    momentum = 0.9 * buffers["momentum"] + grads
    variance = 0.99 * buffers["variance"] + grads**2
    return params - 0.1 * momentum / (jnp.sqrt(variance) + 1e-8), {"momentum": momentum, "variance": variance}


params = jnp.ones(8)
params, buffers = update(params, init_buffers(params), jnp.full_like(params, 0.1))
print("params:", jnp.round(params, 2)[:2])
