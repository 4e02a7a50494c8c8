# oracle: cpu-load=ok
import os

import torch
import torch_xla
import torch_xla.core.xla_model as xm
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
x, y = torch.randn(64, 16, device=device), torch.randn(64, 4, device=device)
for step in range(STEPS):
    optimizer.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    optimizer.step()
    torch_xla.sync()

xm.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, "model.pt")
