import torch.nn as nn

from blocks import build_block


class GrowingRegressor(nn.Module):
    def __init__(self, in_dim, dim, block_type):
        super().__init__()
        self.block_type = block_type
        self.dim = dim
        self.stem = nn.Linear(in_dim, dim)
        self.blocks = nn.ModuleList([build_block(block_type, dim)])
        self.out = nn.Linear(dim, 1)

    def grow(self):
        self.blocks.append(build_block(self.block_type, self.dim))

    def forward(self, x):
        h = self.stem(x)
        for blk in self.blocks:
            h = blk(h)
        return self.out(h).squeeze(-1)
