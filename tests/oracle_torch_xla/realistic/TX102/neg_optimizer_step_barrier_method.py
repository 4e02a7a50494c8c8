# oracle: graph-growth-per-step=0 executions-per-step=1
import os

import torch
import torch_xla
import torch_xla.core.xla_model as xm
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


class Trainer:
    def __init__(self, model):
        self.device = torch_xla.device()
        self.model = model.to(self.device)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)

    def train_step(self, x, y):
        self.optimizer.zero_grad()
        loss = nn.functional.mse_loss(self.model(x), y)
        loss.backward()
        xm.optimizer_step(self.optimizer, barrier=True)
        return loss

    def fit(self, batches):
        for x, y in batches:
            self.train_step(x.to(self.device), y.to(self.device))


Trainer(nn.Linear(16, 4)).fit([(torch.randn(8, 16), torch.randn(8, 4))] * STEPS)
