"""A per-sample loss (reduction='none') backpropagated without reducing it."""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 3)
x, y = torch.randn(8, 4), torch.randint(0, 3, (8,))
losses = nn.functional.cross_entropy(model(x), y, reduction="none")
losses.backward()
