# oracle: optimizer-steps-per-step=1 idle-optimizer-steps-per-step=0
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
loss_fn = nn.MSELoss()

device = torch_xla.device()
model.to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x, y = torch.randn(64, 16, device=device), torch.randn(64, 4, device=device)
for step in range(STEPS):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    torch_xla.sync()
print("final loss", loss.item())
