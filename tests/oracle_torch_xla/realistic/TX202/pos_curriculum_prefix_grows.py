# oracle: compiles-per-step=1
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


class SeqModel(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        return self.proj(x).mean(dim=1)


def train(model, optimizer, sequences, device):
    for step, seq in enumerate(sequences):
        seq = seq.to(device)
        cur_len = 4 + step
        optimizer.zero_grad()
        loss = model(seq[:, :cur_len]).pow(2).mean()  # error: TX202
        loss.backward()
        optimizer.step()
        torch_xla.sync()


device = torch_xla.device()
model = SeqModel(8).to(device)
train(model, torch.optim.SGD(model.parameters(), lr=0.1), [torch.randn(2, 32, 8) for _ in range(STEPS)], device)
