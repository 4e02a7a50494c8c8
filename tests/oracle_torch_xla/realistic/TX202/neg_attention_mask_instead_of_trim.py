# oracle: compiles-per-step=0
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
MAX_LEN = 32


def collate(lengths):
    tokens = torch.randn(len(lengths), MAX_LEN, 8)
    mask = torch.arange(MAX_LEN)[None, :] < torch.tensor(lengths)[:, None]
    return tokens, mask


device = torch_xla.device()
model = nn.Linear(8, 1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
batch_lengths = [[5 + step, 3, 4] for step in range(STEPS)]
for lengths in batch_lengths:
    tokens, mask = collate(lengths)
    tokens, mask = tokens.to(device), mask.to(device)
    optimizer.zero_grad()
    scores = model(tokens).squeeze(-1)
    loss = (scores * mask).sum() / mask.sum()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
