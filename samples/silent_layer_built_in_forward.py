"""Layers constructed inside forward: every call builds new random weights, which never train."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        out = torch.softmax(q @ k.transpose(-2, -1) / self.dim ** 0.5, dim=-1) @ v
        return nn.Linear(self.dim, self.dim)(out)  # belongs in __init__


model = Attention(8)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(3):
    loss = model(torch.randn(2, 5, 8)).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print("trained")
