"""A residual block (defined in samples/lib/blocks.py) adds its skip connection in place.

`out += identity` after a ReLU: the ReLU saved `out`, so backward fails. The bad line is in
the model's module, not in this training script.
"""
import torch
import torch.nn as nn

from lib.blocks import ResidualBlock

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), ResidualBlock(16), nn.Linear(16, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

x, y = torch.randn(32, 8), torch.randn(32, 1)
for step in range(3):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}")
