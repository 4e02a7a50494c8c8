# oracle: raises=InvalidBackend
# oracle-message: Invalid backend: 'torchxla_trace_once'
import torch
import torch._dynamo
import torch_xla


@torch._dynamo.optimize("torchxla_trace_once")  # error: TX707
def forward(x):
    return torch.sin(x) * 2


forward(torch.ones(3, device=torch_xla.device()))
