import torch
import torch.nn as nn


def conv_block(cin, cout, down=True):
    if down:
        conv = nn.Conv2d(cin, cout, 4, stride=2, padding=1)
    else:
        conv = nn.ConvTranspose2d(cin, cout, 4, stride=2, padding=1)
    return nn.Sequential(conv, nn.BatchNorm2d(cout), nn.LeakyReLU(0.2))


class ImageEncoder(nn.Module):
    def __init__(self, latent_dim=64):
        super().__init__()
        self.features = nn.Sequential(conv_block(3, 16), conv_block(16, 32), conv_block(32, 64))
        self.proj = nn.Linear(64 * 4 * 4, latent_dim)

    def forward(self, img):
        h = self.features(img)
        return self.proj(h.flatten(1))


class SpecDecoder(nn.Module):
    def __init__(self, latent_dim=64):
        super().__init__()
        self.fc = nn.Linear(latent_dim, 64 * 4 * 4)
        self.up = nn.Sequential(conv_block(64, 32, down=False), conv_block(32, 16, down=False))
        self.out = nn.ConvTranspose2d(16, 1, 4, stride=2, padding=1)

    def forward(self, f):
        h = self.fc(f).view(-1, 64, 4, 4)
        return torch.tanh(self.out(self.up(h)))


class Generator(nn.Module):
    def __init__(self, latent_dim=64):
        super().__init__()
        self.enc = ImageEncoder(latent_dim)
        self.dec = SpecDecoder(latent_dim)

    def forward(self, img):
        f = self.enc(img)
        return self.dec(f), f


class Discriminator(nn.Module):
    def __init__(self, latent_dim=64):
        super().__init__()
        self.body = nn.Sequential(conv_block(1, 16), conv_block(16, 32), conv_block(32, 64))
        self.cond = nn.Linear(latent_dim, 64)
        self.head = nn.Linear(64 * 4 * 4, 1)

    def forward(self, spec, f):
        h = self.body(spec)
        h = h + self.cond(f)[:, :, None, None]
        return self.head(h.flatten(1))
