# oracle: transfers-per-step>=1 executions-per-step>=2
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def prototype_loss(embeddings, labels):
    classes = torch.unique(labels)  # error: TX201
    centers = torch.stack([embeddings[labels == c].mean(0) for c in classes])  # error: TX201
    return centers.pow(2).mean()


device = torch_xla.device()
model = nn.Linear(16, 8).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(STEPS):
    x = torch.randn(12, 16).to(device)
    y = torch.randint(0, 3, (12,)).to(device)
    optimizer.zero_grad()
    loss = prototype_loss(model(x), y)
    loss.backward()
    optimizer.step()
    torch_xla.sync()
