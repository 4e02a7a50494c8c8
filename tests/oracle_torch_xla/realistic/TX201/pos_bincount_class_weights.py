# oracle: transfers-per-step>=1
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def balanced_loss(logits, labels):
    counts = torch.bincount(labels)  # error: TX201
    weights = counts.sum() / (counts.float() + 1.0)
    return nn.functional.cross_entropy(logits, labels, weight=weights[: logits.shape[-1]])


def main():
    device = torch_xla.device()
    model = nn.Linear(16, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(STEPS):
        labels = torch.full((16,), 3).to(device)
        optimizer.zero_grad()
        loss = balanced_loss(model(torch.randn(16, 16, device=device)), labels)
        loss.backward()
        optimizer.step()
        torch_xla.sync()


main()
