# oracle: timed=step_times timed-share>0.5
import os
import time

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = torch.nn.Sequential(torch.nn.Linear(1024, 1024), torch.nn.Tanh(), torch.nn.Linear(1024, 1024)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
step_times = []
for step in range(STEPS + 1):
    tic = time.perf_counter()
    optimizer.zero_grad()
    loss = model(torch.randn(1024, 1024, device=device)).pow(2).mean()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
    # Formatting the loss copies it to the host, which waits for the step to finish.
    print(f"step {step} loss {loss} in {time.perf_counter() - tic:.3f} s")
    if step > 0:
        step_times.append(time.perf_counter() - tic)
