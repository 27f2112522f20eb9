"""A MAML-style inner loop works on fast weights, `param.clone()` of each parameter (computed
tensors, not leaves). Freezing the first layer by setting requires_grad on those fast weights
raises: only leaves have a flag of their own; the original parameters are what to freeze."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def fast_weights_of(model):
    return {name: param.clone() for name, param in model.named_parameters()}


def forward(weights, x):
    h = F.relu(F.linear(x, weights["0.weight"], weights["0.bias"]))
    return F.linear(h, weights["2.weight"], weights["2.bias"])


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
x, y = torch.randn(8, 4), torch.randn(8, 1)
weights = fast_weights_of(model)
for name, w in weights.items():
    if name.startswith("0."):
        w.requires_grad = False
loss = F.mse_loss(forward(weights, x), y)
print(loss.item())
