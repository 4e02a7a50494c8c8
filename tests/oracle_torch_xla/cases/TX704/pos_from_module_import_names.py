# oracle: raises=ModuleNotFoundError
# oracle-message: No module named 'torch_xla.experimental.xla_sharding'
import torch
from torch_xla.experimental.xla_sharding import Mesh, mark_sharding  # error: TX704


def shard_batch(batch, mesh):
    mark_sharding(batch, mesh, ("data", None))
