# oracle: raises TracerBoolConversionError: Attempted boolean conversion of traced array
import jax.lax as lax
import jax.numpy as jnp


def positive_branch(v):
    if v.sum() > 10.0:  # error: JX101
        return v / 10.0
    return v


def negative_branch(v):
    return -v


lax.cond(True, positive_branch, negative_branch, jnp.arange(3.0))
