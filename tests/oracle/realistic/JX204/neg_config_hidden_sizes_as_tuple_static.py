# oracle: stdout output shape: (4, 16)
import functools
import json

import jax
import jax.numpy as jnp

CONFIG_JSON = '{"hidden_sizes": [32, 32, 16], "activation": "relu"}'


def init_mlp(key, in_dim, hidden_sizes):
    params = []
    for width in hidden_sizes:
        key, sub = jax.random.split(key)
        params.append(jax.random.normal(sub, (in_dim, width)) / in_dim**0.5)
        in_dim = width
    return params


@functools.partial(jax.jit, static_argnames=("hidden_sizes", "activation"))
def forward(params, x, hidden_sizes, activation):
    act = getattr(jax.nn, activation)
    for w, width in zip(params, hidden_sizes):
        x = act(x @ w)
    return x


cfg = json.loads(CONFIG_JSON)
params = init_mlp(jax.random.key(0), 8, cfg["hidden_sizes"])
out = forward(params, jnp.ones((4, 8)), hidden_sizes=tuple(cfg["hidden_sizes"]), activation=cfg["activation"])
print("output shape:", out.shape)
