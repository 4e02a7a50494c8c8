# oracle: timed=evaluator.batch_times timed-share>0.4
import os
import time

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


class Evaluator:
    def __init__(self, model):
        self.device = torch_xla.device()
        self.model = model.to(self.device).eval()
        self.batch_times = []

    @torch.no_grad()
    def run(self, batches, skip_first=True):
        for index, (x, y) in enumerate(batches):
            x, y = x.to(self.device), y.to(self.device)
            start = time.perf_counter()
            logits = self.model(x)
            torch_xla.sync()
            correct = (logits.argmax(dim=-1) == y).sum().item()  # waits for the logits
            elapsed = time.perf_counter() - start
            if index > 0 or not skip_first:
                self.batch_times.append(elapsed)
            print(f"batch {index}: {correct} correct in {elapsed * 1e3:.1f} ms")


model = torch.nn.Sequential(*[torch.nn.Sequential(torch.nn.Linear(1024, 1024), torch.nn.ReLU()) for _ in range(3)])
batches = [(torch.randn(1024, 1024), torch.randint(0, 1024, (1024,))) for _ in range(STEPS + 1)]
evaluator = Evaluator(model)
evaluator.run(batches)
