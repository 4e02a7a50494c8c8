# oracle: devices=1
import warnings

import torch
import torch_xla

warnings.simplefilter("error", DeprecationWarning)
try:
    device = torch_xla.device()
except AttributeError:
    import torch_xla.core.xla_model as xm

    device = xm.xla_device()
print(torch.ones(2, device=device).sum())
