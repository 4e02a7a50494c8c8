# oracle: compiles-per-step=0
import os

import torch
import torch_xla
import torch.nn.functional as F
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
MAX_LEN = 32


def collate(sequences):
    return torch.stack([F.pad(s, (0, 0, 0, MAX_LEN - s.shape[0])) for s in sequences])


device = torch_xla.device()
encoder = nn.GRU(12, 16, batch_first=True).to(device)
head = nn.Linear(16, 2).to(device)
optimizer = torch.optim.Adam([*encoder.parameters(), *head.parameters()])
batches = [[torch.randn(6 + 2 * i, 12), torch.randn(4, 12)] for i in range(STEPS)]
for sequences in batches:
    tokens = collate(sequences).to(device)
    optimizer.zero_grad()
    out, _ = encoder(tokens)
    loss = head(out[:, -1]).pow(2).mean()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
