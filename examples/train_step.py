"""A small JAX training script with the kind of bugs xlalens finds before anything runs."""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def loss_fn(params, batch):
    logits = batch["x"] @ params["w"] + params["b"]
    loss = jnp.mean((logits - batch["y"]) ** 2)
    print("loss:", loss)
    if loss > 10.0:
        loss = jnp.log(loss)
    return loss


@partial(jax.jit, static_argnames=("num_layers",))
def forward(x, num_layers):
    for _ in range(num_layers):
        x = jnp.tanh(x)
    keep = x[x > 0]
    return np.asarray(keep)


@jax.jit
def clip_first(grads: jax.Array, limit):
    grads[0] = jnp.clip(grads[0], -limit, limit)
    return grads[: int(limit)]


history = []


@jax.jit
def update(params, grads, lr):
    new_params = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
    history.append(lr * 2.0)
    return new_params


weights = jnp.zeros((4, 4))
weights[0, 0] = 1.0
