# oracle: executions-per-step=1 transfers-per-step=0
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def main():
    device = torch_xla.device()
    all_labels = torch.randint(0, 4, (256,))
    counts = torch.bincount(all_labels, minlength=4)
    weights = (counts.sum() / (counts.float() + 1.0)).to(device)
    model = nn.Linear(16, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(STEPS):
        labels = torch.randint(0, 4, (16,)).to(device)
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(torch.randn(16, 16, device=device)), labels, weight=weights)
        loss.backward()
        optimizer.step()
        torch_xla.sync()


main()
