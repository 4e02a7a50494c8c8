# oracle: timed=eval_seconds timed-share<0.2
import os
from timeit import default_timer as timer

import torch
import torch_xla
import torch_xla.runtime as xr

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
on_xla = xr.device_type() is not None
model = torch.nn.Sequential(*[torch.nn.Sequential(torch.nn.Linear(1024, 1024), torch.nn.SiLU()) for _ in range(3)])
model = model.to(device).eval()


def evaluate(batches):
    outputs = []
    begin = timer()
    with torch.no_grad():
        for x in batches:
            outputs.append(model(x))
            if on_xla:
                torch_xla.sync()
    return outputs, timer() - begin  # error: TX104


inputs = [torch.randn(1024, 1024, device=device) for _ in range(STEPS)]
torch_xla.sync()
evaluate(inputs[:1])
_, eval_seconds = evaluate(inputs)
print(f"evaluation: {eval_seconds:.3f} s for {STEPS} batches")
