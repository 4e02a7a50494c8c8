# oracle: stdout taking the big branch JitTracer(
import jax
import jax.numpy as jnp


def big(v):
    print("taking the big branch", v.sum())  # error: JX106
    return v / 10.0


def small(v):
    return v


@jax.jit
def shrink(x):
    return jax.lax.cond(x.sum() > 10.0, big, small, x)


shrink(jnp.arange(3.0))
