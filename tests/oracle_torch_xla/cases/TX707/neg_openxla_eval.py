# oracle: devices=1
import torch
import torch_xla

model = torch.nn.Linear(4, 4).to(torch_xla.device()).eval()
with torch.no_grad():
    print(torch.compile(model, backend="openxla_eval")(torch.ones(1, 4, device=torch_xla.device())).shape)
