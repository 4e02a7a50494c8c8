# oracle: devices=4
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr

xr.use_spmd()
mesh = xs.Mesh(np.arange(4), (4, 1), ("data", "model"))
t = torch.ones(8, 4, device=torch_xla.device())
xs.mark_sharding(t, mesh, ("data", None))
