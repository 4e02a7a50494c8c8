# oracle: raises=DeprecationWarning
# oracle-message: Use torch_xla.device instead
import warnings

import torch
import torch_xla.core.xla_model as xm

warnings.simplefilter("error", DeprecationWarning)
device = xm.xla_device()  # error: TX702
model = torch.nn.Linear(4, 4).to(device)
