# oracle: compiles-per-step=0
import os

import torch
import torch_xla
import torch.nn.functional as F
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
BUCKETS = (16, 32, 64)


def pad_to_bucket(tokens):
    length = tokens.shape[1]
    bucket = next(b for b in BUCKETS if b >= length)
    return F.pad(tokens, (0, 0, 0, bucket - length))


device = torch_xla.device()
model = nn.Linear(8, 1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
batches = [torch.randn(2, 5 + step, 8) for step in range(STEPS)]
for batch in batches:
    x = pad_to_bucket(batch).to(device)
    optimizer.zero_grad()
    loss = model(x).mean()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
