# oracle: graph-growth-per-step=0 executions-per-step=1
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


class Trainer:
    def __init__(self, model):
        self.device = torch_xla.device()
        self.model = model.to(self.device)
        self.optimizer = torch.optim.Adam(self.model.parameters())

    def fit(self, batches):
        for x, y in batches:
            with torch_xla.step():
                self.optimizer.zero_grad()
                loss = nn.functional.cross_entropy(self.model(x.to(self.device)), y.to(self.device))
                loss.backward()
                self.optimizer.step()


Trainer(nn.Linear(32, 10)).fit([(torch.randn(16, 32), torch.randint(0, 10, (16,)))] * STEPS)
