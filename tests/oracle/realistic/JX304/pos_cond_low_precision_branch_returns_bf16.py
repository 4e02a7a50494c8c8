# oracle: raises TypeError: cond branches must have equal output types
from dataclasses import dataclass

import jax
import jax.numpy as jnp
from jax import lax


@dataclass(frozen=True)
class PrecisionPolicy:
    compute_dtype: jnp.dtype = jnp.bfloat16


def dense_fp32(params, x):
    return jnp.tanh(x @ params["w"] + params["b"])


def dense_low_precision(params, x, policy):
    w = params["w"].astype(policy.compute_dtype)
    b = params["b"].astype(policy.compute_dtype)
    return jnp.tanh(x.astype(policy.compute_dtype) @ w + b)


def forward(params, x, use_low_precision, policy):
    return lax.cond(  # error: JX304
        use_low_precision,
        lambda p, v: dense_low_precision(p, v, policy),
        dense_fp32,
        params,
        x,
    )


policy = PrecisionPolicy()
params = {"w": jnp.ones((3, 2)) * 0.1, "b": jnp.zeros(2)}
out = jax.jit(lambda p, x, flag: forward(p, x, flag, policy))(params, jnp.ones((4, 3)), jnp.array(True))
print(out.dtype)
