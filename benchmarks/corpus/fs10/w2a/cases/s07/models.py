import torch
import torch.nn as nn


class Generator(nn.Module):
    def __init__(self, latent_dim=16, seq_len=64):
        super().__init__()
        self.seq_len = seq_len
        self.fc = nn.Linear(latent_dim, 32 * (seq_len // 4))
        self.net = nn.Sequential(
            nn.Upsample(scale_factor=2), nn.Conv1d(32, 16, 5, padding=2), nn.BatchNorm1d(16), nn.LeakyReLU(0.2),
            nn.Upsample(scale_factor=2), nn.Conv1d(16, 1, 5, padding=2), nn.Tanh(),
        )

    def forward(self, z):
        x = self.fc(z).view(z.shape[0], 32, self.seq_len // 4)
        return self.net(x)


class Discriminator(nn.Module):
    def __init__(self, seq_len=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(1, 16, 5, stride=2, padding=2), nn.LeakyReLU(0.2),
            nn.Conv1d(16, 32, 5, stride=2, padding=2), nn.LeakyReLU(0.2),
            nn.Flatten(), nn.Linear(32 * (seq_len // 4), 1),
        )

    def forward(self, x):
        return self.net(x)
