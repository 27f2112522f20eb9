import torch.nn as nn


def block(in_features, out_features, normalize=True):
    layers = [nn.Linear(in_features, out_features)]
    if normalize:
        layers.append(nn.BatchNorm1d(out_features))
    layers.append(nn.LeakyReLU(0.2, inplace=True))
    return layers


class Generator(nn.Module):
    def __init__(self, latent_dim, data_dim, hidden=64):
        super().__init__()
        self.model = nn.Sequential(
            *block(latent_dim, hidden, normalize=False),
            *block(hidden, hidden * 2),
            *block(hidden * 2, hidden * 2),
            nn.Linear(hidden * 2, data_dim),
            nn.Tanh(),
        )

    def forward(self, z):
        return self.model(z)


class Discriminator(nn.Module):
    def __init__(self, data_dim, hidden=64):
        super().__init__()
        self.model = nn.Sequential(
            nn.Linear(data_dim, hidden * 2),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(hidden * 2, hidden),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.model(x)
