# oracle: compiles-per-step=0
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
SEQ_LEN = 16


class PositionalModel(nn.Module):
    def __init__(self, max_len, dim):
        super().__init__()
        self.pos = nn.Embedding(max_len, dim)
        self.out = nn.Linear(dim, 1)

    def forward(self, positions):
        return self.out(self.pos(positions)).mean()


device = torch_xla.device()
model = PositionalModel(64, 8).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(STEPS):
    positions = torch.arange(SEQ_LEN, device=device)
    optimizer.zero_grad()
    loss = model(positions).pow(2)
    loss.backward()
    optimizer.step()
    torch_xla.sync()
