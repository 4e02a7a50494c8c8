# oracle: runs
import jax
import jax.numpy as jnp


def pjit(fn, **options):
    """The project's own wrapper, named after the old API."""
    return jax.jit(fn, **options)


step = pjit(lambda x: x * 3)
print(step(jnp.ones(2)))
