# oracle: cpu-load=ok
import os

import torch
import torch_xla
import torch_xla.core.xla_model as xm
from torch import nn

device = torch_xla.device()
model = nn.Linear(12, 3).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)  # plain SGD keeps no tensors
data = torch.randn(6, 12, device=device)
for epoch in range(int(os.environ["XLALENS_ORACLE_STEPS"])):
    optimizer.zero_grad()
    model(data).pow(2).mean().backward()
    optimizer.step()
    torch_xla.sync()
xm.save(model.state_dict(), "model.pt")
torch.save(optimizer.state_dict(), "optimizer.pt")
