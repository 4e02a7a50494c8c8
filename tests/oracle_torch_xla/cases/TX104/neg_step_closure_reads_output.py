# oracle: timed=seconds timed-share>0.3
import os
import time

import torch
import torch_xla
import torch_xla.core.xla_model as xm

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = torch.nn.Sequential(*[torch.nn.Sequential(torch.nn.Linear(1024, 1024), torch.nn.Tanh()) for _ in range(3)])
model = model.to(device).eval()
inputs = torch.randn(1024, 1024, device=device)
torch_xla.sync()
norms = []
seconds = 0.0
with torch.no_grad():
    for step in range(STEPS + 1):
        start = time.perf_counter()
        out = model(inputs)
        # The sync runs this closure, and reading the norm waits for the graph to finish.
        xm.add_step_closure(lambda value: norms.append(value.norm().item()), args=(out,))
        torch_xla.sync()
        elapsed = time.perf_counter() - start
        if step > 0:
            seconds += elapsed
