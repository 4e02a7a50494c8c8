# oracle: compiles-per-step=0
import os
import random

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
CROP = 32


def random_crop(signal, crop):
    start = random.randrange(0, signal.shape[-1] - crop)
    return signal[..., start : start + crop]


device = torch_xla.device()
model = torch.nn.Conv1d(4, 4, kernel_size=3, padding=1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(STEPS):
    x = random_crop(torch.randn(2, 4, 128), CROP).to(device)
    optimizer.zero_grad()
    loss = model(x).pow(2).mean()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
