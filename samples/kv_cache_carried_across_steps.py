"""An attention layer keeps a key/value cache on itself and writes each step's keys and values
into it in place; the cache comes back into the next training step with the graph of the step
before, which that step's backward freed."""
import torch
from torch import nn


class CachedAttention(nn.Module):
    def __init__(self, dim=8, max_len=16):
        super().__init__()
        self.wq, self.wk, self.wv = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.cache = torch.zeros(2, 1, max_len, dim)

    def forward(self, x, start):
        q, k, v = self.wq(x), self.wk(x), self.wv(x)
        self.cache = self.cache.to(k)
        self.cache[0, :, start:start + x.shape[1]] = k
        self.cache[1, :, start:start + x.shape[1]] = v
        keys, values = self.cache[0, :, :start + x.shape[1]], self.cache[1, :, :start + x.shape[1]]
        return torch.softmax(q @ keys.transpose(1, 2), -1) @ values


torch.manual_seed(0)
layer = CachedAttention()
optimizer = torch.optim.SGD(layer.parameters(), lr=0.1)
for step in range(3):
    out = layer(torch.randn(1, 4, 8), start=0)
    loss = out.pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
