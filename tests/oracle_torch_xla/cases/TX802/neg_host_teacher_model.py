# oracle: cpu-load=ok
import os

import torch
import torch_xla
from torch import nn

# The teacher stays on the host; only the student trains on the XLA device.
teacher = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 4))
teacher.eval()
torch.save(teacher.state_dict(), "teacher.pt")

device = torch_xla.device()
student = nn.Linear(20, 4).to(device)
optimizer = torch.optim.SGD(student.parameters(), lr=0.1)
inputs = torch.randn(16, 20)
with torch.no_grad():
    soft_targets = teacher(inputs).softmax(dim=-1).to(device)
inputs = inputs.to(device)
for _ in range(int(os.environ["XLALENS_ORACLE_STEPS"])):
    optimizer.zero_grad()
    nn.functional.cross_entropy(student(inputs), soft_targets).backward()
    optimizer.step()
    torch_xla.sync()
