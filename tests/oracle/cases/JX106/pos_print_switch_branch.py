# oracle: stdout branch one got JitTracer(
import jax
import jax.numpy as jnp
from jax import lax


def branch_zero(v):
    return v


def branch_one(v):
    print("branch one got", v)  # error: JX106
    return v * 2.0


@jax.jit
def pick(i, x):
    return lax.switch(i, [branch_zero, branch_one], x)


pick(1, jnp.arange(3.0))
