"""Domain-adversarial training with a gradient reversal layer written as an nn.Module with its own
backward(). Autograd never calls a module's backward: the features get the domain classifier's
gradient with its sign intact, and learn to help it instead of confusing it."""
import torch
from torch import nn


class GradReverse(nn.Module):
    def __init__(self, scale=1.0):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        return x.view_as(x)

    def backward(self, grad_output):
        return -self.scale * grad_output


torch.manual_seed(0)
features = nn.Sequential(nn.Linear(6, 8), nn.ReLU())
domain_head = nn.Linear(8, 2)
reverse = GradReverse()
optimizer = torch.optim.SGD([*features.parameters(), *domain_head.parameters()], lr=0.1)
for step in range(3):
    x, domain = torch.randn(16, 6), torch.randint(0, 2, (16,))
    loss = nn.functional.cross_entropy(domain_head(reverse(features(x))), domain)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"loss {loss.item():.4f}")
