# oracle: fallback=aten::masked_select transfers-per-step>=1
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

    def train_step(self, x, y, mask):
        self.optimizer.zero_grad()
        pred = self.model(x).squeeze(-1)
        loss = nn.functional.mse_loss(torch.masked_select(pred, mask), torch.masked_select(y, mask))  # error: TX201
        loss.backward()
        self.optimizer.step()

    def fit(self, batches):
        for x, y, mask in batches:
            self.train_step(x.to(self.device), y.to(self.device), mask.to(self.device))
            torch_xla.sync()


Trainer(nn.Linear(16, 1)).fit([(torch.randn(8, 16), torch.randn(8), torch.rand(8) > 0.3) for _ in range(STEPS)])
