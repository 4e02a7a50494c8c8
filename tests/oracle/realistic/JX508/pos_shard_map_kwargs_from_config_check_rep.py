# oracle: raises TypeError: shard_map() got an unexpected keyword argument 'check_rep'
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P


class ShardedTrainer:
    def __init__(self, mesh):
        self.mesh = mesh
        self.step = jax.shard_map(self._local_step, mesh=mesh, in_specs=(P(), P("data")), out_specs=P(), check_rep=False)  # error: JX508

    @staticmethod
    def _local_step(w, x):
        return w - 0.1 * jax.lax.pmean(jnp.mean(x, axis=0), "data")


mesh = jax.make_mesh((8,), ("data",), axis_types=(AxisType.Auto,))
trainer = ShardedTrainer(mesh)
print(trainer.step(jnp.zeros(4), jnp.ones((16, 4))))
