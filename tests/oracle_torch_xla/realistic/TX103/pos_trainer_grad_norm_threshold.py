# oracle: executions-per-step=2 transfers-per-step=1
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


class Trainer:
    def __init__(self, model, max_norm=1.0):
        self.device = torch_xla.device()
        self.model = model.to(self.device)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)
        self.max_norm = max_norm
        self.clipped_steps = 0

    def step(self, x, y):
        self.optimizer.zero_grad()
        loss = nn.functional.mse_loss(self.model(x), y)
        loss.backward()
        grad_norm = nn.utils.clip_grad_norm_(self.model.parameters(), self.max_norm)
        if grad_norm > self.max_norm:  # error: TX103
            self.clipped_steps += 1
        self.optimizer.step()

    def fit(self, batches):
        for x, y in batches:
            self.step(x.to(self.device), y.to(self.device))
            torch_xla.sync()


Trainer(nn.Linear(16, 4)).fit([(torch.randn(8, 16), torch.randn(8, 4))] * STEPS)
