import torch
import torch.nn as nn


class Generator(nn.Module):
    def __init__(self, w_dim=32, img=16):
        super().__init__()
        self.img = img
        self.net = nn.Sequential(nn.Linear(w_dim, 128), nn.LeakyReLU(0.2), nn.Linear(128, 3 * img * img), nn.Tanh())

    def forward(self, w):
        return self.net(w).view(-1, 3, self.img, self.img)


class Encoder(nn.Module):
    def __init__(self, w_dim=32):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(16, 32, 3, 2, 1), nn.LeakyReLU(0.2),
        )
        self.fc = nn.Linear(32 * 4 * 4, w_dim)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, 16, 3, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(16, 32, 3, 2, 1), nn.LeakyReLU(0.2),
            nn.Flatten(), nn.Linear(32 * 4 * 4, 1),
        )

    def forward(self, x):
        return self.net(x)
