# oracle: executions-per-step=2 transfers-per-step=1
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
    loss = loss / 10 if loss > 100 else loss  # error: TX103
    loss.backward()
    optimizer.step()
    torch_xla.sync()
