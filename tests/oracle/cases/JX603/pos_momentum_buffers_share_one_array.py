# oracle: raises RuntimeError: INVALID_ARGUMENT: Attempt to donate the same buffer twice
import jax
import jax.numpy as jnp


def init_buffers(params):
    zeros = jnp.zeros_like(params)
    return {"momentum": zeros, "variance": zeros}


def update(params, buffers, grads):
    momentum = 0.9 * buffers["momentum"] + grads
    variance = 0.99 * buffers["variance"] + grads**2
    return params - 0.01 * momentum / (jnp.sqrt(variance) + 1e-8), {"momentum": momentum, "variance": variance}


update = jax.jit(update, donate_argnums=(0, 1))


def train(params, steps=3):
    buffers = init_buffers(params)
    for _ in range(steps):
        params, buffers = update(params, buffers, jnp.full_like(params, 0.1))  # error: JX603
    return params


print(train(jnp.ones(8))[:2])
