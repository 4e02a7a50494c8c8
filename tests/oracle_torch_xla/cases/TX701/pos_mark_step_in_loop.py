# oracle: raises=DeprecationWarning
# oracle-message: Use torch_xla.sync instead
import os
import warnings

import torch
import torch_xla
import torch_xla.core.xla_model as xm

warnings.simplefilter("error", DeprecationWarning)
STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = torch.nn.Linear(8, 2).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(STEPS):
    optimizer.zero_grad()
    model(torch.randn(4, 8, device=device)).sum().backward()
    optimizer.step()
    xm.mark_step()  # error: TX701
