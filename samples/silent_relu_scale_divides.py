"""An entropy model divides by a predicted scale that a relu keeps non-negative, but not away
from zero: where the scale is exactly 0, the division gives inf and the gradients NaN."""
import torch
from torch import nn


def likelihood(values, scale):
    upper = (values + 0.5) / scale
    lower = (values - 0.5) / scale
    return torch.sigmoid(upper) - torch.sigmoid(lower)


torch.manual_seed(0)
hyper = nn.Linear(4, 4)
with torch.no_grad():
    hyper.bias.fill_(-10.0)
optimizer = torch.optim.Adam(hyper.parameters(), lr=1e-3)
for step in range(2):
    x = torch.randn(16, 4)
    scale = torch.relu(hyper(x))
    loss = -torch.log(likelihood(x, scale).clamp(min=1e-9)).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
