# oracle: compiles-per-step=1
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
MAX_LEN = 32


def collate(lengths):
    tokens = torch.randn(len(lengths), MAX_LEN, 8)
    longest = max(lengths)
    return tokens[:, :longest]


device = torch_xla.device()
model = nn.Linear(8, 1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
batch_lengths = [[5 + step, 3, 4] for step in range(STEPS)]
for lengths in batch_lengths:
    batch = collate(lengths).to(device)  # error: TX202
    optimizer.zero_grad()
    loss = model(batch).mean()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
