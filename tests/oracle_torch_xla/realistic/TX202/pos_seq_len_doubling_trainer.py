# oracle: compiles>=3
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


class Trainer:
    def __init__(self, model, base_len=4, max_doublings=3):
        self.device = torch_xla.device()
        self.model = model.to(self.device)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)
        self.base_len = base_len
        self.max_doublings = max_doublings

    def seq_len(self, step):
        return self.base_len * 2 ** min(step, self.max_doublings)

    def fit(self, steps):
        for step in range(steps):
            x = torch.randn(2, self.seq_len(step), 8, device=self.device)  # error: TX202
            self.optimizer.zero_grad()
            loss = self.model(x).pow(2).mean()
            loss.backward()
            self.optimizer.step()
            torch_xla.sync()


Trainer(nn.Linear(8, 8)).fit(STEPS)
