# oracle: raises=InvalidBackend
# oracle-message: Invalid backend: 'torchxla_trace_once'
import torch
import torch_xla


def build(model, inference):
    if inference:
        return torch.compile(model, backend='torchxla_trace_once', fullgraph=True)  # error: TX707
    return model


build(torch.nn.Linear(2, 2).to(torch_xla.device()), inference=True)(torch.ones(1, 2, device=torch_xla.device()))
