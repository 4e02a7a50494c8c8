# oracle: raises=InvalidBackend
# oracle-message: Invalid backend: 'torchxla_trace_once'
import torch
import torch_xla

model = torch.nn.Linear(4, 4).to(torch_xla.device())
compiled = torch.compile(model, backend="torchxla_trace_once")  # error: TX707
compiled(torch.ones(2, 4, device=torch_xla.device()))
