# oracle: raises AttributeError: module 'jax.sharding' has no attribute 'use_mesh'
import jax
import jax.numpy as jnp

mesh = jax.make_mesh((8,), ("x",))
with jax.sharding.use_mesh(mesh):  # error: JX709
    y = jnp.ones(8) * 2
