# oracle: graph-growth-per-step>0 executions-per-step=1
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def run_epochs(model, optimizer, batches, device, epochs):
    for epoch in range(epochs):
        for x, y in batches:  # error: TX102
            optimizer.zero_grad()
            loss = torch.nn.functional.l1_loss(model(x.to(device)), y.to(device))
            loss.backward()
            optimizer.step()
        torch_xla.sync()


device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
run_epochs(model, optimizer, [(torch.randn(8, 16), torch.randn(8, 4))] * STEPS, device, epochs=STEPS)
