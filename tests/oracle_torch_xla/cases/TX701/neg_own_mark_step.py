# oracle: devices=1
import torch
import torch_xla

MARKS = []


def mark_step():
    MARKS.append(len(MARKS))
    torch_xla.sync()


x = torch.ones(2, device=torch_xla.device())
mark_step()
