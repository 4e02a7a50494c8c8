# oracle: executions-per-step=2 transfers-per-step=1
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(16, 64)
        self.head = nn.Linear(64, 4)

    def forward(self, x):
        return self.head(torch.relu(self.encoder(x)))


device = torch_xla.device()
net = Net().to(device)
optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
overflow_steps = []
for step in range(STEPS):
    optimizer.zero_grad()
    logits = net(torch.randn(8, 16, device=device))
    if (logits.abs() > 1e4).any():  # error: TX103
        overflow_steps.append(step)
    loss = logits.logsumexp(-1).mean()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
