# oracle: executions-per-step=1 transfers-per-step=1
import os

import torch
import torch_xla
from torch.optim.lr_scheduler import ReduceLROnPlateau

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scheduler = ReduceLROnPlateau(optimizer, mode="min", patience=2)
for step in range(STEPS):
    optimizer.zero_grad()
    loss = model(torch.randn(8, 16, device=device)).pow(2).mean()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
    scheduler.step(loss.item())
