# oracle: runs
import jax
import jax.numpy as jnp


class Ops:
    @staticmethod
    @jax.jit
    def double(x):
        return x * 2.0


Ops.double(jnp.arange(3.0))
Ops().double(jnp.arange(3.0))
