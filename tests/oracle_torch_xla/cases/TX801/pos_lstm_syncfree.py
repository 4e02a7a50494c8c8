# oracle: optimizer-steps-per-step=1 idle-optimizer-steps-per-step=1
import os

import torch
import torch_xla
import torch_xla.amp.syncfree as syncfree
from torch import nn


class SequenceModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(8, 16, batch_first=True)
        self.out = nn.Linear(16, 1)

    def forward(self, x):
        hidden, _ = self.lstm(x)
        return self.out(hidden[:, -1])


def run(steps):
    device = torch_xla.device()
    model = SequenceModel()
    optimizer = syncfree.AdamW(model.parameters(), lr=1e-3)
    model.to(device=device)  # error: TX801
    x = torch.randn(4, 6, 8, device=device)
    y = torch.randn(4, 1, device=device)
    for _ in range(steps):
        optimizer.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
        torch_xla.sync()


run(int(os.environ["XLALENS_ORACLE_STEPS"]))
