"""Fine-tuning with every parameter frozen: nothing in the loss requires grad."""
import torch
import torch.nn as nn

torch.manual_seed(0)
backbone = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2))
for p in backbone.parameters():
    p.requires_grad = False  # meant to freeze only the first layer
x, y = torch.randn(4, 8), torch.tensor([0, 1, 1, 0])
loss = nn.functional.cross_entropy(backbone(x), y)
loss.backward()
