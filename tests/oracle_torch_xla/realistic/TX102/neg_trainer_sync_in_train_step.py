# oracle: graph-growth-per-step=0 executions-per-step=1
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.device = torch_xla.device()
        self.model = model.to(self.device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)

    def train_step(self, x, y):
        self.optimizer.zero_grad()
        loss = nn.functional.cross_entropy(self.model(x), y)
        loss.backward()
        self.optimizer.step()
        torch_xla.sync()
        return loss

    def fit(self, batches):
        for x, y in batches:
            self.train_step(x.to(self.device), y.to(self.device))


Trainer(nn.Linear(32, 10)).fit([(torch.randn(16, 32), torch.randint(0, 10, (16,)))] * STEPS)
