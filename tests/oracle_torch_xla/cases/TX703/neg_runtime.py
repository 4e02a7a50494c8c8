# oracle: devices=1
import torch_xla.runtime as xr

GLOBAL_BATCH = 256
per_replica = GLOBAL_BATCH // xr.world_size()
print(per_replica, xr.global_ordinal())
