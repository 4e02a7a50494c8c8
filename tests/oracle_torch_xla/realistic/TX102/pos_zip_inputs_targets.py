# oracle: graph-growth-per-step>0 executions-per-step=0
import os

import torch
import torch_xla
import torch.nn as nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


class MLP(nn.Module):
    def __init__(self, d_in, d_hidden, d_out):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.fc2 = nn.Linear(d_hidden, d_out)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


device = torch_xla.device()
inputs = [torch.randn(8, 16) for _ in range(STEPS)]
targets = [torch.randn(8, 2) for _ in range(STEPS)]
net = MLP(16, 32, 2).to(device)
opt = torch.optim.SGD(net.parameters(), lr=1e-2)
for x, y in zip(inputs, targets):  # error: TX102
    opt.zero_grad()
    loss = nn.functional.mse_loss(net(x.to(device)), y.to(device))
    loss.backward()
    opt.step()
