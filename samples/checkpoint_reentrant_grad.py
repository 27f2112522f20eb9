"""Reentrant checkpointing combined with torch.autograd.grad."""
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
block = nn.Sequential(nn.Linear(4, 4), nn.Tanh())
x = torch.randn(2, 4, requires_grad=True)
out = checkpoint(block, x, use_reentrant=True)
(grad_x,) = torch.autograd.grad(out.sum(), x)
