# oracle: executions-per-step=1 transfers-per-step=1
import os

import torch
import torch_xla
import torch_xla.core.xla_model as xm
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


class Trainer:
    def __init__(self, model, device):
        self.model = model.to(device)
        self.device = device
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)

    def _report(self, step, loss):
        xm.master_print(f"step {step} loss {loss.item():.3f}")

    def fit(self, batches):
        for step, (x, y) in enumerate(batches):
            self.optimizer.zero_grad()
            loss = nn.functional.mse_loss(self.model(x.to(self.device)), y.to(self.device))
            loss.backward()
            self.optimizer.step()
            xm.add_step_closure(self._report, args=(step, loss))
            torch_xla.sync()


Trainer(nn.Linear(16, 4), torch_xla.device()).fit([(torch.randn(8, 16), torch.randn(8, 4))] * STEPS)
