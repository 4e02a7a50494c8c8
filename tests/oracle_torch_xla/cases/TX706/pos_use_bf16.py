# oracle: devices=1
# oracle-output: XLA_USE_BF16 will be deprecated after the 2.6 release
import os

os.environ["XLA_USE_BF16"] = "1"  # error: TX706

import torch
import torch_xla

model = torch.nn.Linear(4, 4).to(torch_xla.device())
print(model(torch.ones(2, 4, device=torch_xla.device())).sum().item())
