# oracle: executions-per-step=1 transfers-per-step=1
import os

import torch
import torch_xla
import torch_xla.core.xla_model as xm

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


class EarlyStopping:
    def __init__(self, target):
        self.target = target
        self.should_stop = False

    def check(self, loss):
        # Runs after the sync, on a loss that is already computed: reading it is a copy, not a new graph.
        if loss.item() < self.target:
            self.should_stop = True


device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
stopper = EarlyStopping(1e-6)
for step in range(STEPS):
    optimizer.zero_grad()
    loss = model(torch.randn(8, 16, device=device)).pow(2).mean()
    loss.backward()
    optimizer.step()
    xm.add_step_closure(stopper.check, args=(loss,))
    torch_xla.sync()
    if stopper.should_stop:
        break
