"""A gradient check before training, whose gradients are reset before the loop starts: the
first step applies only its own batch's gradients."""
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(16, 10), torch.randint(0, 4, (16,))
nn.functional.cross_entropy(model(x), y).backward()
print(f"initial gradient norm {model[0].weight.grad.norm().item():.3f}")
optimizer.zero_grad()
for step in range(4):
    x, y = torch.randn(16, 10), torch.randint(0, 4, (16,))
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
