# oracle: devices=1
import torch_xla.experimental.pjrt_backend
import torch_xla.runtime as xr

print(xr.device_type())
