"""The loss is computed inside the evaluation helper's torch.no_grad() block, then trained on."""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(32, 8), torch.randn(32, 1)

with torch.no_grad():
    loss = nn.functional.mse_loss(model(x), y)  # meant for logging, reused for training
print(f"loss {loss.item():.4f}")
loss.backward()
optimizer.step()
