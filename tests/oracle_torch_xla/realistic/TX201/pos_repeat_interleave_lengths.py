# oracle: transfers-per-step>=1
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


class SegmentPooler(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, segments, lengths):
        expanded = torch.repeat_interleave(self.proj(segments), lengths, dim=0)  # error: TX201
        return expanded.mean(0)


device = torch_xla.device()
model = SegmentPooler(8).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(STEPS):
    lengths = torch.randint(1, 4, (4,)).to(device)
    optimizer.zero_grad()
    loss = model(torch.randn(4, 8, device=device), lengths).pow(2).sum()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
