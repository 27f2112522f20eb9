"""A gradient penalty computed with backward(create_graph=True) instead of autograd.grad."""
import torch
import torch.nn as nn

torch.manual_seed(0)
critic = nn.Linear(4, 1)
x = torch.randn(8, 4, requires_grad=True)
critic(x).sum().backward(create_graph=True)
penalty = (x.grad.norm(dim=1) - 1).pow(2).mean()
print(f"penalty {penalty.item():.4f}")
