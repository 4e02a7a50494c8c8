# oracle: timed=trainer.step_times timed-share>0.4
import os
import time

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


class Trainer:
    def __init__(self, model, lr=1e-3, warmup_steps=1):
        self.device = torch_xla.device()
        self.model = model.to(self.device)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=lr)
        self.loss_fn = torch.nn.MSELoss()
        self.warmup_steps = warmup_steps
        self.step_times = []

    def train_step(self, x, y):
        # optimizer.step() updates the parameters in place: the next step's sync donates their buffers
        # and waits for this step to finish, so each step's interval covers the step before it.
        self.optimizer.zero_grad()
        loss = self.loss_fn(self.model(x), y)
        loss.backward()
        self.optimizer.step()
        torch_xla.sync()
        return loss

    def fit(self, batches):
        for step, (x, y) in enumerate(batches):
            x, y = x.to(self.device), y.to(self.device)
            start = time.perf_counter()
            self.train_step(x, y)
            elapsed = time.perf_counter() - start
            if step >= self.warmup_steps:
                self.step_times.append(elapsed)
                print(f"step {step}: {elapsed * 1e3:.1f} ms")


model = torch.nn.Sequential(torch.nn.Linear(1024, 1024), torch.nn.Tanh(), torch.nn.Linear(1024, 1024))
batches = [(torch.randn(1024, 1024), torch.randn(1024, 1024)) for _ in range(STEPS + 1)]
trainer = Trainer(model)
trainer.fit(batches)
