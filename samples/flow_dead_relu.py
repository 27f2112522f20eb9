"""A bad initialisation: the first layer's bias starts at -10, so every pre-activation is
negative and the ReLU after it outputs zero for every sample. No gradient gets through it;
the first layer never learns. Nothing raises.

    gradscope run --grad-flow samples/flow_dead_relu.py
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
with torch.no_grad():
    model[0].bias.fill_(-10.0)  # the bad initialisation
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
x, y = torch.randn(128, 16), torch.randn(128, 1)
for step in range(8):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
print(f"loss after 8 steps: {loss.item():.4f}")
