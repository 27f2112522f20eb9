"""A second loss is built from the logits of the training forward after its backward freed
their graph. It trains nothing of its own, so `.detach()` would leave it without a graph: the
logits must be computed again by a new forward pass."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Linear(8, 5)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(16, 8), torch.randint(0, 5, (16,))
logits = model(x)
F.cross_entropy(logits, y).backward()
optimizer.step()
sampled = torch.distributions.Categorical(logits=logits.detach()).sample()
F.cross_entropy(logits, sampled).backward()
