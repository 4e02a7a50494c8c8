# oracle: timed=elapsed timed-share<0.2
import os
import time

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
weights = [torch.randn(1024, 1024, device=device) for _ in range(3)]


def forward(x):
    for w in weights:
        x = torch.tanh(x @ w)
    return x


x = torch.randn(1024, 1024, device=device)
torch_xla.sync(wait=True)
out = forward(x)  # warm-up: compiles the graph the loop runs
torch_xla.sync(wait=True)
elapsed = 0.0
for _ in range(STEPS):
    tic = time.perf_counter()
    out = forward(x)
    # wait=True waits for the graph to be dispatched, not for it to finish.
    torch_xla.sync(wait=True)
    elapsed += time.perf_counter() - tic  # error: TX104
print(f"{elapsed / STEPS * 1e3:.2f} ms per forward")
