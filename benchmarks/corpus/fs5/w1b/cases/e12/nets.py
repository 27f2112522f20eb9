import torch.nn as nn


def mlp(in_dim, hidden, out_dim, depth, act):
    layers, d = [], in_dim
    for _ in range(depth):
        layers += [nn.Linear(d, hidden), act()]
        d = hidden
    layers.append(nn.Linear(d, out_dim))
    return nn.Sequential(*layers)


class Generator(nn.Module):
    def __init__(self, latent_dim=8, hidden=64, out_dim=2):
        super().__init__()
        self.net = mlp(latent_dim, hidden, out_dim, 3, nn.ReLU)

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self, in_dim=2, hidden=64):
        super().__init__()
        self.net = mlp(in_dim, hidden, 1, 3, lambda: nn.LeakyReLU(0.2))

    def forward(self, x):
        return self.net(x).squeeze(-1)
