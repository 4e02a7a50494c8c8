# oracle: devices=1
import torch
import torch_xla

model = torch.nn.Linear(4, 4).to(torch_xla.device())
compiled = torch.compile(model, backend="openxla")
print(compiled(torch.ones(2, 4, device=torch_xla.device())).shape)
