# oracle: compiles-per-step=0
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
data = torch.randn(64, 16, device=device)
torch_xla.sync()
for step in range(STEPS):
    optimizer.zero_grad()
    offset = torch.tensor((step * 8) % 56, device=device)
    batch = torch.index_select(data, 0, torch.arange(8, device=device) + offset)
    loss = model(batch).pow(2).mean()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
