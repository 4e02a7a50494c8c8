# oracle: executions-per-step=2 transfers-per-step=1
import os

import torch
import torch_xla
import torch.nn as nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()


class Trainer:
    def __init__(self):
        self.model = nn.Linear(24, 6).to(device)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)
        self.predictions = []

    def run_epoch(self, batches):
        for features, labels in batches:
            features, labels = features.to(device), labels.to(device)
            self.optimizer.zero_grad()
            logits = self.model(features)
            loss = nn.functional.cross_entropy(logits, labels)
            loss.backward()
            self.optimizer.step()
            self.predictions.extend(logits.argmax(-1).tolist())  # error: TX101
            torch_xla.sync()


Trainer().run_epoch([(torch.randn(8, 24), torch.randint(0, 6, (8,))) for _ in range(STEPS)])
