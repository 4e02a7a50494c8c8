# oracle: optimizer-steps-per-step=1 idle-optimizer-steps-per-step=0
import os

import torch
import torch_xla
from torch import nn

# Module.to now swaps each parameter's contents in place, so the optimizer keeps the same objects.
torch.__future__.set_swap_module_params_on_conversion(True)


def setup(device):
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    model = model.to(device)
    return model, optimizer


device = torch_xla.device()
model, optimizer = setup(device)
data, target = torch.randn(16, 32, device=device), torch.randn(16, 1, device=device)
for _ in range(int(os.environ["XLALENS_ORACLE_STEPS"])):
    optimizer.zero_grad()
    (model(data) - target).pow(2).mean().backward()
    optimizer.step()
    torch_xla.sync()
