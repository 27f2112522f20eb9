"""Summing losses as tensors keeps every iteration's graph alive."""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
total_loss = 0
for step in range(3):
    optimizer.zero_grad()
    loss = model(torch.randn(8, 4)).pow(2).mean()
    loss.backward()
    optimizer.step()
    total_loss += loss  # should be loss.item()
print(f"mean loss {total_loss.item() / 3:.4f}")
