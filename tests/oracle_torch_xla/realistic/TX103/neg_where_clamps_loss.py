# oracle: executions-per-step=1 transfers-per-step=0
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(STEPS):
    optimizer.zero_grad()
    loss = model(torch.randn(8, 16, device=device)).pow(2).mean()
    loss = torch.where(loss > 100, loss / 10, loss)
    loss = torch.nan_to_num(loss, nan=0.0)
    loss.backward()
    optimizer.step()
    torch_xla.sync()
