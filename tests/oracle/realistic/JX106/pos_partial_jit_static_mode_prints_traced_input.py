# oracle: stdout normalizing JitTracer(
import functools

import jax
import jax.numpy as jnp


def normalize(x, mode):
    if mode == "layer":
        mean, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    else:
        mean, var = x.mean(0, keepdims=True), x.var(0, keepdims=True)
    out = (x - mean) / jnp.sqrt(var + 1e-5)
    print("normalizing", out, "with", mode)  # error: JX106
    return out


@functools.partial(jax.jit, static_argnames=("mode",))
def forward(w, x, mode):
    return normalize(x @ w, mode)


forward(jnp.eye(3), jnp.arange(6.0).reshape(2, 3), mode="layer")
