# oracle: graph-growth-per-step>0 executions-per-step=0
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def synthetic_batches(num_batches, batch_size=8):
    for _ in range(num_batches):
        yield torch.randn(batch_size, 16), torch.randn(batch_size, 4)


def train(model, loader, optimizer, loss_fn):
    device = torch_xla.device()
    model = model.to(device)
    for step, (x, y) in enumerate(loader):  # error: TX102
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()


model = nn.Linear(16, 4).to(torch_xla.device())
train(model, synthetic_batches(STEPS), torch.optim.SGD(model.parameters(), lr=0.01), nn.MSELoss())
