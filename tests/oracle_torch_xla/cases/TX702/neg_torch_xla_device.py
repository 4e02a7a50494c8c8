# oracle: devices=1
import warnings

import torch
import torch_xla

warnings.simplefilter("error", DeprecationWarning)
device = torch_xla.device()
print(torch.nn.Linear(4, 4).to(device)(torch.ones(1, 4, device=device)).shape)
