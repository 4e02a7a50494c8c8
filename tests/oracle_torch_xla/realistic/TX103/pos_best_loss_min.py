# oracle: executions-per-step=2 transfers-per-step=1
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def train(model, batches, optimizer, device):
    best_loss = float("inf")
    for x, y in batches:
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
        best_loss = min(best_loss, loss)  # error: TX103
        torch_xla.sync()
    return best_loss


device = torch_xla.device()
model = nn.Linear(16, 4).to(device)
train(model, [(torch.randn(8, 16), torch.randn(8, 4))] * STEPS, torch.optim.SGD(model.parameters(), lr=0.1), device)
