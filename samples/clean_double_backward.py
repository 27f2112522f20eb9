"""Higher-order gradients done right: autograd.grad with create_graph=True. No findings."""
import torch
import torch.nn as nn

torch.manual_seed(0)
critic = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
optimizer = torch.optim.Adam(critic.parameters(), lr=1e-3)
for step in range(2):
    optimizer.zero_grad()
    x = torch.randn(6, 4, requires_grad=True)
    score = critic(x)
    (grad_x,) = torch.autograd.grad(score.sum(), x, create_graph=True)
    penalty = (grad_x.norm(dim=1) - 1).pow(2).mean()
    (score.mean() + 10 * penalty).backward()
    optimizer.step()
print(f"penalty {penalty.item():.4f}")
