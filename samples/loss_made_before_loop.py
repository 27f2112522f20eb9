"""The loss is computed once, before the loop; every iteration calls backward on it again, and
the second finds its graph freed. The fix is to compute the loss inside the loop."""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(8, 4), torch.randn(8, 1)
loss = nn.functional.mse_loss(model(x), y)
for epoch in range(3):
    opt.zero_grad()
    loss.backward()
    opt.step()
