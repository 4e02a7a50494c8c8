# oracle: devices=1
# oracle-output-absent: will be deprecated after the 2.6 release
import os

os.environ["XLA_USE_BF16"] = "0"

import torch
import torch_xla

print(torch.ones(2, device=torch_xla.device()).sum().item())
