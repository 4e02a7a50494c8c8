# oracle: devices=1
# oracle-output-absent: will be deprecated after the 2.6 release
import torch
import torch_xla

device = torch_xla.device()
model = torch.nn.Linear(4, 4).to(device).to(torch.bfloat16)
print(model(torch.ones(2, 4, device=device, dtype=torch.bfloat16)).dtype)
