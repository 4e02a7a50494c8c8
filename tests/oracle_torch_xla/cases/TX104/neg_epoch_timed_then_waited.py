# oracle: timed=epoch_seconds timed-share>0.5
import os
import time

import torch
import torch_xla
import torch_xla.core.xla_model as xm

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = torch.nn.Sequential(torch.nn.Linear(1024, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 1024)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
loss_fn = torch.nn.MSELoss()


def train_epoch(batches):
    start = time.perf_counter()
    for x, y in batches:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        loss_fn(model(x), y).backward()
        optimizer.step()
        torch_xla.sync()
    xm.wait_device_ops()
    return time.perf_counter() - start


train_epoch([(torch.randn(1024, 1024), torch.randn(1024, 1024))])
epoch_seconds = train_epoch([(torch.randn(1024, 1024), torch.randn(1024, 1024)) for _ in range(STEPS)])
print(f"epoch: {epoch_seconds:.3f} s")
