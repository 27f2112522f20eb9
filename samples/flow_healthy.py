"""A healthy network: ReLU MLP with Kaiming initialisation, LayerNorm and Adam. Gradient norms
stay within an order of magnitude across layers and steps; --grad-flow reports nothing.

    gradscope run --grad-flow samples/flow_healthy.py
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 64), nn.LayerNorm(64), nn.ReLU(),
                      nn.Linear(64, 64), nn.LayerNorm(64), nn.ReLU(), nn.Linear(64, 1))
for module in model:
    if isinstance(module, nn.Linear):
        nn.init.kaiming_normal_(module.weight, nonlinearity="relu")
        nn.init.zeros_(module.bias)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
x, y = torch.randn(128, 16), torch.randn(128, 1)
for step in range(20):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
print(f"loss after 20 steps: {loss.item():.4f}")
