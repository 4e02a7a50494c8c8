# oracle: stdout params: [0.9 0.9]
import jax
import jax.numpy as jnp


def init_buffers(params):
    return {"momentum": jnp.zeros_like(params), "variance": jnp.zeros_like(params)}


def update(params, buffers, grads):
    momentum = 0.9 * buffers["momentum"] + grads
    variance = 0.99 * buffers["variance"] + grads**2
    return params - 0.1 * momentum / (jnp.sqrt(variance) + 1e-8), {"momentum": momentum, "variance": variance}


update = jax.jit(update, donate_argnums=(0, 1))


def train(params):
    buffers = init_buffers(params)
    params, buffers = update(params, buffers, jnp.full_like(params, 0.1))
    return params


print("params:", jnp.round(train(jnp.ones(8)), 2)[:2])
