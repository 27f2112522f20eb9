"""The per-head losses are gathered with torch.tensor(..., requires_grad=True): a new leaf that
holds their values but not their graph. backward() fills that leaf's .grad and nothing else; the
model never trains. Nothing raises."""
import torch
import torch.nn as nn


def multi_head_loss(outputs, target):
    losses = [nn.functional.mse_loss(out, target) for out in outputs]
    return torch.tensor(losses, requires_grad=True).mean()


torch.manual_seed(0)
heads = nn.ModuleList(nn.Linear(4, 1) for _ in range(3))
optimizer = torch.optim.SGD(heads.parameters(), lr=0.1)
for _ in range(4):
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    loss = multi_head_loss([head(x) for head in heads], y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print("loss", round(loss.item(), 4))
