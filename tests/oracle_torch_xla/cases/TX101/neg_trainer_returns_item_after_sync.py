# oracle: executions-per-step=1 transfers-per-step=1
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


class Trainer:
    def __init__(self, model):
        self.device = torch_xla.device()
        self.model = model.to(self.device)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.05)
        self.history = []

    def train_step(self, x, y):
        self.optimizer.zero_grad()
        loss = nn.functional.mse_loss(self.model(x), y)
        loss.backward()
        self.optimizer.step()
        torch_xla.sync()
        # The graph has run: reading the loss copies it, without another execution.
        return loss.item()

    def fit(self, batches):
        for x, y in batches:
            self.history.append(self.train_step(x.to(self.device), y.to(self.device)))


Trainer(nn.Linear(16, 4)).fit([(torch.randn(8, 16), torch.randn(8, 4)) for _ in range(STEPS)])
