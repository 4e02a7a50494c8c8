# oracle: compiles=2 compiles-per-step=0
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
from torch.utils.data import DataLoader, TensorDataset

loader = DataLoader(TensorDataset(torch.randn(20, 16)), batch_size=8)  # error: TX202
for epoch in range(STEPS):
    for (x,) in loader:
        optimizer.zero_grad()
        loss = model(x.to(device)).pow(2).mean()
        loss.backward()
        optimizer.step()
        torch_xla.sync()
