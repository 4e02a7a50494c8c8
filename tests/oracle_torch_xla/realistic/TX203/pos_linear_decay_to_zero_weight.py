# oracle: compiles>=2
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
student = torch.nn.Linear(16, 4).to(device)
teacher = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(student.parameters(), lr=0.1)
distill_steps = 1
for step in range(STEPS):
    x = torch.randn(8, 16, device=device)
    with torch.no_grad():
        target = teacher(x)
    out = student(x)
    distill_weight = max(0.0, 1.0 - step / distill_steps) * 0.5
    loss = out.pow(2).mean() + distill_weight * (out - target).pow(2).mean()  # error: TX203
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
