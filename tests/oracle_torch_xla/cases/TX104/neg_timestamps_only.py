# oracle: executions-per-step=1 transfers-per-step=0
import json
import os
import time

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = torch.nn.Linear(64, 64).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
events = []
for step in range(STEPS):
    optimizer.zero_grad()
    model(torch.randn(32, 64, device=device)).pow(2).mean().backward()
    optimizer.step()
    torch_xla.sync()
    events.append({"step": step, "dispatched_at": time.time()})
    print(json.dumps(events[-1]))
torch_xla.sync()
print("finished at", time.time())
