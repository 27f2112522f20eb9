"""A sanity check runs one backward on a validation batch before training, to print the initial
gradient norm; the loop resets the gradients only after each step, so the first update also
applies the validation batch's gradients."""
import torch
from torch import nn


def gradient_norm_at_init(model, batch):
    x, y = batch
    nn.functional.cross_entropy(model(x), y).backward()
    norm = torch.sqrt(sum(p.grad.pow(2).sum() for p in model.parameters()))
    print(f"initial gradient norm {norm.item():.3f}")


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
gradient_norm_at_init(model, (torch.randn(16, 10), torch.randint(0, 4, (16,))))
for step in range(4):
    x, y = torch.randn(16, 10), torch.randint(0, 4, (16,))
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
