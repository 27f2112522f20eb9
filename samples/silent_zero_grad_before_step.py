"""zero_grad(set_to_none=True) sits between backward() and step(): every step finds no
gradients and the model never trains. Nothing raises."""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for _ in range(5):
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.zero_grad()
    optimizer.step()
print("loss", round(loss.item(), 4))
