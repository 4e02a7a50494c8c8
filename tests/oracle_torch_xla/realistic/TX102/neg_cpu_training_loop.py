# oracle: graph-growth-per-step=0 executions-per-step=0
import os

import torch
import torch_xla  # noqa: F401  (imported for the XLA run of the same script)

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch.device("cpu")
model = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(STEPS):
    optimizer.zero_grad()
    loss = model(torch.randn(8, 16, device=device)).pow(2).mean()
    loss.backward()
    optimizer.step()
