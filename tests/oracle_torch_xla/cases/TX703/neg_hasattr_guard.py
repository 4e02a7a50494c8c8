# oracle: devices=1
import torch_xla.core.xla_model as xm
import torch_xla.runtime as xr

world = xm.xrt_world_size() if hasattr(xm, "xrt_world_size") else xr.world_size()
print(world)
