# oracle: stdout weights
import jax
import jax.numpy as jnp
from jax import lax


def init_state(dim):
    return {"w": jnp.zeros(dim), "momentum": jnp.zeros(dim), "step": jnp.zeros((), jnp.int32)}


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


def sgd_momentum_update(state, x, y, lr=0.1, beta=0.9):
    g = jax.grad(loss_fn)(state["w"], x, y)
    momentum = beta * state["momentum"] + g
    return {**state, "w": state["w"] - lr * momentum, "momentum": momentum, "step": state["step"] + 1}


@jax.jit
def train(x, y):
    state = init_state(x.shape[1])
    state = lax.fori_loop(0, 3, lambda i, s: sgd_momentum_update(s, x, y), state)
    return state["w"]


print("weights", train(jnp.ones((4, 2)), jnp.ones(4)))
