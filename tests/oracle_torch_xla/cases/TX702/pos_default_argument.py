# oracle: raises=DeprecationWarning
# oracle-message: Use torch_xla.device instead
import warnings

import torch
import torch_xla.core.xla_model as xm

warnings.simplefilter("error", DeprecationWarning)


def make_batch(size, device=xm.xla_device()):  # error: TX702
    return torch.zeros(size, device=device)
