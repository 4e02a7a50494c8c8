# oracle: executions-per-step=0 transfers-per-step=0
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
cpu_model = torch.nn.Linear(16, 4)
cpu_optimizer = torch.optim.SGD(cpu_model.parameters(), lr=0.1)
for step in range(STEPS):
    cpu_optimizer.zero_grad()
    loss = cpu_model(torch.randn(8, 16)).pow(2).mean()
    loss.backward()
    print("loss", loss.item())
    cpu_optimizer.step()
