# oracle: cpu-load=NotImplementedError
# oracle-output: NotImplementedError: Could not run 'aten::empty.memory_format' with arguments from the 'XLA' backend
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(64, 16, device=device), torch.randn(64, 4, device=device)
for step in range(STEPS):
    optimizer.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    optimizer.step()
    torch_xla.sync()

torch.save(model.state_dict(), "model.pt")  # error: TX802
