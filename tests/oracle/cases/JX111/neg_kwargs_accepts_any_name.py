# oracle: runs
import jax
import jax.numpy as jnp


def forward(x, **options):
    return x * options.get("scale", 1.0)


# A function with **kwargs takes any name, so JAX accepts one it cannot see in the signature.
forward_jit = jax.jit(forward, static_argnames=("scale",))
print(forward_jit(jnp.ones(3), scale=2.0))
