# oracle: devices=1
try:
    import torch_xla.runtime as xr
except ImportError:
    from torch_xla.experimental import pjrt as xr

print(xr.global_ordinal())
