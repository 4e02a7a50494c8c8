# oracle: executions-per-step=0 transfers-per-step=0
import os

import torch
import torch_xla  # noqa: F401  (the CPU baseline lives next to the XLA run)
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def train(model, batches, device):
    model = model.to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in batches:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        print("cpu loss", loss.item())


train(nn.Linear(16, 4), [(torch.randn(8, 16), torch.randn(8, 4))] * STEPS, torch.device("cpu"))
