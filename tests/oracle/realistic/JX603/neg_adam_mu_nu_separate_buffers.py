# oracle: stdout [0.9968
from typing import NamedTuple

import jax
import jax.numpy as jnp


class AdamState(NamedTuple):
    mu: jax.Array
    nu: jax.Array


def init_adam(params):
    return AdamState(mu=jnp.zeros_like(params), nu=jnp.zeros_like(params))


def adam(params, state, grads, lr=1e-3):
    mu = 0.9 * state.mu + 0.1 * grads
    nu = 0.999 * state.nu + 0.001 * grads**2
    return params - lr * mu / (jnp.sqrt(nu) + 1e-8), AdamState(mu, nu)


adam_step = jax.jit(adam, donate_argnums=(0, 1))
params = jnp.ones(32)
opt_state = init_adam(params)
params, opt_state = adam_step(params, opt_state, jnp.full(32, 0.5))
print(params[:4])
