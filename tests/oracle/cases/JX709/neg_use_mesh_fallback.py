# oracle: runs
import jax
import jax.numpy as jnp

try:
    from jax.sharding import use_mesh
except ImportError:
    use_mesh = jax.set_mesh

mesh = jax.make_mesh((8,), ("x",))
with use_mesh(mesh):
    print(jnp.ones(2))
