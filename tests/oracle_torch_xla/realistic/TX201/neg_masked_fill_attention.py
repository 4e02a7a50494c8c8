# oracle: executions-per-step=1 transfers-per-step=0
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


class TinyAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, padding_mask):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5
        scores = scores.masked_fill(padding_mask[:, None, :], float("-inf"))
        return scores.softmax(-1) @ v


device = torch_xla.device()
model = TinyAttention(16).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(STEPS):
    x = torch.randn(2, 6, 16).to(device)
    lengths = torch.tensor([6, 4])
    mask = (torch.arange(6)[None, :] >= lengths[:, None]).to(device)
    optimizer.zero_grad()
    loss = model(x, mask).pow(2).mean()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
