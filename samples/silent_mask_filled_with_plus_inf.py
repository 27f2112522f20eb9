"""A causal attention mask is filled with `-float("-inf")`, which is +inf: the softmax of every
masked row is NaN, and so are the gradients the first step writes into the weights."""
import torch
from torch import nn


class CausalAttention(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = q @ k.transpose(1, 2) / 8 ** 0.5
        future = torch.ones(x.shape[1], x.shape[1], dtype=torch.bool).triu(1)
        scores.masked_fill_(future, -float("-inf"))
        return scores.softmax(dim=-1) @ v


torch.manual_seed(0)
model = CausalAttention()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(2):
    loss = model(torch.randn(2, 5, 8)).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
