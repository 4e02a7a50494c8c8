# oracle: devices=1
# oracle-output: XLA_DOWNCAST_BF16 will be deprecated after the 2.6 release
import os

os.environ.setdefault("XLA_DOWNCAST_BF16", "1")  # error: TX706

import torch
import torch_xla

print((torch.ones(3, device=torch_xla.device()) * 1.5).sum().item())
