"""Layers kept in a plain Python list are not registered: the optimizer never sees them."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = [nn.Linear(4, 4) for _ in range(2)]  # should be nn.ModuleList
        self.out = nn.Linear(4, 1)

    def forward(self, x):
        for block in self.blocks:
            x = torch.relu(block(x))
        return self.out(x)


model = Stack()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(8, 4), torch.randn(8, 1)
for step in range(2):
    optimizer.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    optimizer.step()
print("trained")
