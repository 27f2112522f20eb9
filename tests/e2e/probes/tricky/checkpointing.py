"""torch.utils.checkpoint, reentrant and not."""
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
block = nn.Sequential(nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 8))
x = torch.randn(4, 8, requires_grad=True)
for reentrant in (True, False):
    block.zero_grad()
    x.grad = None
    out = checkpoint(block, x, use_reentrant=reentrant)
    out.pow(2).sum().backward()
    print(reentrant, x.grad.sum().item(), block[0].weight.grad.sum().item())
