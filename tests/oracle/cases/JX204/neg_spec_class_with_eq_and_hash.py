# oracle: stdout [1. 3. 5. 7.]
import functools

import jax
import jax.numpy as jnp


class PoolSpec:
    def __init__(self, window, stride):
        self.window = window
        self.stride = stride

    def __eq__(self, other):
        return isinstance(other, PoolSpec) and (self.window, self.stride) == (other.window, other.stride)

    def __hash__(self):
        return hash((self.window, self.stride))


@functools.partial(jax.jit, static_argnums=1)
def max_pool(x, spec):
    return jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (spec.window,), (spec.stride,), "VALID")


def downsample(signal):
    return max_pool(signal, PoolSpec(2, 2))


print(downsample(jnp.arange(8.0)))
