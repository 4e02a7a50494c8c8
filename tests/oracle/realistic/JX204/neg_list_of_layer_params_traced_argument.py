# oracle: stdout output shape: (4, 16)
import functools

import jax
import jax.numpy as jnp


def init_mlp(key, sizes):
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        key, sub = jax.random.split(key)
        params.append({"w": jax.random.normal(sub, (n_in, n_out)) / n_in**0.5, "b": jnp.zeros(n_out)})
    return params


@functools.partial(jax.jit, static_argnames="activation")
def forward(layers, x, activation):
    act = getattr(jax.nn, activation)
    for layer in layers:
        x = act(x @ layer["w"] + layer["b"])
    return x


layers = init_mlp(jax.random.key(0), [8, 32, 16])
out = forward(layers, jnp.ones((4, 8)), activation="gelu")
print("output shape:", out.shape)
