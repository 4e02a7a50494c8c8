# oracle: timed=seconds_per_call timed-share>0.5
import os
import time

import torch
import torch_xla
import torch_xla.core.xla_model as xm

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def benchmark(fn, *inputs, warmup=1, iters=STEPS):
    """Average wall time of one call of ``fn``, after ``warmup`` calls that compile it."""
    for _ in range(warmup):
        out = fn(*inputs)
        torch_xla.sync()
    xm.wait_device_ops()
    start = time.perf_counter()
    for _ in range(iters):
        out = fn(*inputs)
        torch_xla.sync()
    xm.wait_device_ops()
    return (time.perf_counter() - start) / iters


device = torch_xla.device()
mlp = torch.nn.Sequential(*[torch.nn.Sequential(torch.nn.Linear(1024, 1024), torch.nn.Tanh()) for _ in range(3)])
mlp = mlp.to(device)
batch = torch.randn(1024, 1024, device=device)
torch_xla.sync()  # materialize the input so the warm-up compiles the graph being timed
with torch.no_grad():
    seconds_per_call = benchmark(mlp, batch) * STEPS
print(f"forward: {seconds_per_call / STEPS * 1e3:.2f} ms")
