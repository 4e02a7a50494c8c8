# oracle: executions-per-step=3 transfers-per-step=2
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def train_epoch(model, optimizer, batches, device, max_norm=1.0):
    model.train()
    for x, y in batches:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), max_norm, error_if_nonfinite=True)  # error: TX101
        optimizer.step()
        torch_xla.sync()


device = torch_xla.device()
model = nn.Sequential(nn.Linear(20, 64), nn.GELU(), nn.Linear(64, 5)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
data = [(torch.randn(4, 20), torch.randint(0, 5, (4,))) for _ in range(STEPS)]
train_epoch(model, optimizer, data, device)
