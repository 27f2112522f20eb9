"""A decoder layer built with the inference option `use_kv_cache` on, as its config says, is
trained: each step writes its keys into the layer's cache, which carries the previous step's
graph into the next one."""
import torch
from torch import nn

CONFIG = {"dim": 8, "max_len": 16, "use_kv_cache": True}


class Attention(nn.Module):
    def __init__(self, dim, max_len, use_kv_cache=False):
        super().__init__()
        self.use_kv_cache = use_kv_cache
        self.wq, self.wk = nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.cache_k = torch.zeros(1, max_len, dim)

    def forward(self, x):
        q, k = self.wq(x), self.wk(x)
        if self.use_kv_cache:
            self.cache_k[:, :x.shape[1]] = k
            k = self.cache_k[:, :x.shape[1]]
        return torch.softmax(q @ k.transpose(1, 2), -1) @ k


torch.manual_seed(0)
layer = Attention(**CONFIG)
optimizer = torch.optim.SGD(layer.parameters(), lr=0.1)
for step in range(3):
    loss = layer(torch.randn(1, 4, 8)).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
