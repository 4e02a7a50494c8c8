# oracle: raises ImportError: cannot import name 'use_mesh' from 'jax.sharding'
import jax
from jax.sharding import PartitionSpec as P, use_mesh  # error: JX709

CONFIG = {"mesh_shape": (8,)}


def run(fn, x):
    mesh = jax.make_mesh(CONFIG["mesh_shape"], ("x",))
    with use_mesh(mesh):
        return fn(x)
