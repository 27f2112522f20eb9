"""A correct training loop: zero_grad, forward, backward, step. gradscope must find nothing."""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(inplace=True), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
x, y = torch.randn(64, 4), torch.randn(64, 1)

for step in range(20):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
print(f"final loss {loss.item():.6f}")
for name, p in model.named_parameters():
    print(name, f"{p.grad.abs().sum().item():.6f}")
