# oracle: compiles=1
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


class Trainer:
    def __init__(self, model):
        self.device = torch_xla.device()
        self.model = model.to(self.device)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)
        self.loss_scale = 2.0**16

    def train_step(self, x):
        self.optimizer.zero_grad()
        loss = self.model(x).pow(2).mean()
        (loss * self.loss_scale).backward()
        self.optimizer.step()
        self.loss_scale /= 2

    def fit(self, steps):
        for step in range(steps):
            self.train_step(torch.randn(8, 16, device=self.device))
            torch_xla.sync()


Trainer(nn.Linear(16, 4)).fit(STEPS)
