import torch.nn as nn

BLOCKS = {}


def register(name):
    def deco(cls):
        BLOCKS[name] = cls
        return cls
    return deco


@register("residual")
class ResidualBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc1 = nn.Linear(dim, dim)
        self.fc2 = nn.Linear(dim, dim)
        self.act = nn.SiLU()
        nn.init.zeros_(self.fc2.weight)
        nn.init.zeros_(self.fc2.bias)

    def forward(self, x):
        return x + self.fc2(self.act(self.fc1(x)))


@register("plain")
class PlainBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.act = nn.Tanh()

    def forward(self, x):
        return self.act(self.fc(x))


def build_block(name, dim):
    return BLOCKS[name](dim)
