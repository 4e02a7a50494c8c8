# oracle: timed=epoch_seconds timed-share>0.4
import os
import time

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = torch.nn.Sequential(torch.nn.Linear(1024, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 1024)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
loss_fn = torch.nn.MSELoss()
data = [(torch.randn(1024, 1024), torch.randn(1024, 1024)) for _ in range(STEPS)]


def train_epoch(loader):
    times = []
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        t0 = time.monotonic()
        with torch_xla.step():
            optimizer.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            optimizer.step()
        # Adam updates the parameters in place, so the next step's sync waits for this one to finish.
        times.append(time.monotonic() - t0)
    return times


train_epoch(data[:1])  # compiles both graphs (Adam's first step differs)
train_epoch(data[:1])
epoch_seconds = train_epoch(data)
