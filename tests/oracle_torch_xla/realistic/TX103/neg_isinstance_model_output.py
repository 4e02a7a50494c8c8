# oracle: executions-per-step=1 transfers-per-step=0
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(8, 16, batch_first=True)
        self.head = nn.Linear(16, 2)

    def forward(self, x):
        out, _ = self.rnn(x)
        return self.head(out[:, -1])


def train(model, optimizer, device):
    for step in range(STEPS):
        optimizer.zero_grad()
        output = model(torch.randn(4, 6, 8, device=device))
        if isinstance(output, tuple):
            output = output[0]
        loss = output.pow(2).mean()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


device = torch_xla.device()
model = Encoder().to(device)
train(model, torch.optim.Adam(model.parameters()), device)
