# oracle: compiles-per-step=1
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
sentences = [torch.randn(6 + 2 * i, 12) for i in range(STEPS)]

encoder = nn.GRU(12, 16, batch_first=True).to(device)
head = nn.Linear(16, 2).to(device)
optimizer = torch.optim.Adam([*encoder.parameters(), *head.parameters()])
for sentence in sentences:
    tokens = sentence.unsqueeze(0).to(device)  # error: TX202
    optimizer.zero_grad()
    out, _ = encoder(tokens)
    loss = head(out[:, -1]).pow(2).mean()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
