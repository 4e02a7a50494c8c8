# oracle: compiles=1
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
backbone = nn.Linear(16, 16).to(device)
main_head = nn.Linear(16, 4).to(device)
aux_head = nn.Linear(16, 2).to(device)
params = [*backbone.parameters(), *main_head.parameters(), *aux_head.parameters()]
optimizer = torch.optim.SGD(params, lr=0.1)
for step in range(STEPS):
    h = torch.relu(backbone(torch.randn(8, 16, device=device)))
    aux_weight = torch.tensor([1.0 if step % 2 == 0 else 0.3], device=device)
    loss = main_head(h).pow(2).mean() + (aux_weight * aux_head(h).pow(2).mean()).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
