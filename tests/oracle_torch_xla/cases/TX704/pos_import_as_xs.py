# oracle: raises=ModuleNotFoundError
# oracle-message: No module named 'torch_xla.experimental.xla_sharding'
import numpy as np
import torch_xla.experimental.xla_sharding as xs  # error: TX704
import torch_xla.runtime as xr

xr.use_spmd()
mesh = xs.Mesh(np.arange(1), (1, 1), ("data", "model"))
