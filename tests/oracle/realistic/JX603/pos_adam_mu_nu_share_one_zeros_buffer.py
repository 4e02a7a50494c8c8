# oracle: raises RuntimeError: INVALID_ARGUMENT: Attempt to donate the same buffer twice
from typing import NamedTuple

import jax
import jax.numpy as jnp


class AdamState(NamedTuple):
    mu: jax.Array
    nu: jax.Array


def init_adam(params):
    zeros = jnp.zeros_like(params)
    return AdamState(mu=zeros, nu=zeros)


def adam(params, state, grads, lr=1e-3):
    mu = 0.9 * state.mu + 0.1 * grads
    nu = 0.999 * state.nu + 0.001 * grads**2
    return params - lr * mu / (jnp.sqrt(nu) + 1e-8), AdamState(mu, nu)


adam_step = jax.jit(adam, donate_argnums=(0, 1))
params = jnp.ones(32)
opt_state = init_adam(params)
params, opt_state = adam_step(params, opt_state, jnp.full(32, 0.5))  # error: JX603
print(params[:4])
