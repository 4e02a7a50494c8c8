# oracle: executions-per-step=1 transfers-per-step=0
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()


class Net(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.linear = torch.nn.Linear(16, 4)

    def forward(self, x):
        return {"loss": self.linear(x).pow(2).mean()}


model = Net().to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(STEPS):
    optimizer.zero_grad()
    out = model(torch.randn(8, 16, device=device))
    if out:
        loss = out["loss"]
    loss.backward()
    optimizer.step()
    torch_xla.sync()
