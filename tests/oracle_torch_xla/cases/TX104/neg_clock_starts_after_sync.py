# oracle: timed=eval_seconds timed-share>0.5
import os
from timeit import default_timer as timer

import torch
import torch_xla
import torch_xla.core.xla_model as xm

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = torch.nn.Sequential(*[torch.nn.Sequential(torch.nn.Linear(1024, 1024), torch.nn.SiLU()) for _ in range(3)])
model = model.to(device).eval()


def evaluate(batches):
    torch_xla.sync()
    xm.wait_device_ops()
    begin = timer()  # starts once the pending work has run
    outputs = []
    with torch.no_grad():
        for x in batches:
            outputs.append(model(x.to(device)))
            torch_xla.sync()
    xm.wait_device_ops()
    return timer() - begin


evaluate([torch.randn(1024, 1024)])
eval_seconds = evaluate([torch.randn(1024, 1024) for _ in range(STEPS)])
