"""Reentrant checkpoint over a block whose input does not require grad: the block gets no gradient."""
import torch
import torch.nn as nn
import warnings
from torch.utils.checkpoint import checkpoint

warnings.simplefilter("ignore")
torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = nn.Sequential(nn.Linear(4, 4), nn.Tanh())
        self.head = nn.Linear(4, 1)

    def forward(self, x):
        h = checkpoint(self.block, x, use_reentrant=True)
        return self.head(h)


net = Net()
optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(2):
    optimizer.zero_grad()
    net(torch.randn(2, 4)).sum().backward()
    optimizer.step()
print("block grad:", net.block[0].weight.grad)
