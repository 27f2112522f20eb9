"""A deep MLP with sigmoid activations: the gradient shrinks by up to 4x at every layer on its
way back, so the first layers get almost none (vanishing gradients). Nothing raises.

    gradscope run --grad-flow samples/flow_vanishing_sigmoid.py
"""
import torch
import torch.nn as nn


class DeepSigmoidMLP(nn.Module):
    def __init__(self, width=32, depth=8):
        super().__init__()
        self.hidden = nn.ModuleList(nn.Linear(width, width) for _ in range(depth))
        self.head = nn.Linear(width, 1)

    def forward(self, x):
        for layer in self.hidden:
            x = torch.sigmoid(layer(x))
        return self.head(x)


torch.manual_seed(0)
model = DeepSigmoidMLP()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(64, 32), torch.randn(64, 1)
for step in range(10):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
print(f"loss after 10 steps: {loss.item():.4f}")
