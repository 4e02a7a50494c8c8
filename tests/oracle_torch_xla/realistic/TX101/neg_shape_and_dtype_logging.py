# oracle: executions-per-step=1 transfers-per-step=0
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
seen = []
for step in range(STEPS):
    x = torch.randn(8, 16).to(device)
    optimizer.zero_grad()
    out = model(x)
    seen.append(f"step {step}: input {tuple(x.shape)} output {out.shape} {out.dtype} on {out.device}")
    loss = out.pow(2).mean()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
