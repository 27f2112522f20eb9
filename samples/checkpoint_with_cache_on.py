"""A decoder block appends its keys to a cache when the config turns caching on; trained with
non-reentrant activation checkpointing, backward recomputes the block, which appends again, so
the recomputed tensors differ from those saved in the forward and backward raises."""
from dataclasses import dataclass

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


@dataclass
class Config:
    width: int = 8
    use_cache: bool = True


class Block(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.proj = nn.Linear(config.width, config.width)

    def forward(self, x, cache):
        keys = self.proj(x)
        if cache is not None:
            cache.append(keys)
            keys = torch.cat(cache, dim=1)
        return torch.tanh(keys).sum(1, keepdim=True) * x


class Decoder(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.block = Block(config)

    def forward(self, x):
        cache = [] if self.config.use_cache else None
        return checkpoint(self.block, x, cache, use_reentrant=False)


torch.manual_seed(0)
model = Decoder(Config())
loss = model(torch.randn(2, 3, 8)).pow(2).mean()
loss.backward()
