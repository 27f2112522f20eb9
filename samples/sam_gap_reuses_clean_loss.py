"""A sharpness-aware step perturbs the weights in place between two backward passes, as the
method requires; the surrogate-gap term then reuses the clean loss, whose graph saved the
weights before the perturbation."""
import torch
from torch import nn


@torch.no_grad()
def perturb(params, rho=0.05):
    norm = torch.norm(torch.stack([p.grad.norm() for p in params]))
    for p in params:
        p.add_(p.grad * rho / (norm + 1e-12))


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
params = list(model.parameters())
x, y = torch.randn(32, 4), torch.randn(32, 1)
loss_clean = (model(x) - y).pow(2).mean()
loss_clean.backward(retain_graph=True)
perturb(params)
loss_adv = (model(x) - y).pow(2).mean()
loss = loss_adv + 0.1 * (loss_adv - loss_clean)
loss.backward()
