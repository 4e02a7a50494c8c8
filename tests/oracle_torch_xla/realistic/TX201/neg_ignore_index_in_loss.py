# oracle: executions-per-step=1 transfers-per-step=0
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
IGNORE = -100


def train(model, loader, optimizer, device):
    for step, (tokens, labels) in enumerate(loader):
        tokens, labels = tokens.to(device), labels.to(device)
        optimizer.zero_grad()
        logits = model(tokens)
        loss = nn.functional.cross_entropy(logits, labels, ignore_index=IGNORE)
        loss.backward()
        optimizer.step()
        torch_xla.sync()


def make_batch(step):
    labels = torch.randint(0, 5, (16,))
    labels[: step + 1] = IGNORE
    return torch.randn(16, 12), labels


device = torch_xla.device()
model = nn.Linear(12, 5).to(device)
train(model, [make_batch(s) for s in range(STEPS)], torch.optim.SGD(model.parameters(), lr=0.1), device)
