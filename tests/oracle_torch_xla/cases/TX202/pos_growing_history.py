# oracle: compiles-per-step=1
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
history = torch.zeros(0, 4, device=device)
for step in range(STEPS):
    optimizer.zero_grad()
    out = model(torch.randn(8, 16, device=device))
    history = torch.cat([history, out.detach()])  # error: TX202
    loss = out.pow(2).mean() + history.mean()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
