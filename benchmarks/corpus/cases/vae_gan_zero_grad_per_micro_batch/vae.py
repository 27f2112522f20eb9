import torch
import torch.nn as nn
import torch.nn.functional as F


class AutoencoderKL(nn.Module):
    def __init__(self, ch=1, hidden=16, latent=4):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(ch, hidden, 3, 2, 1), nn.SiLU(),
                                     nn.Conv2d(hidden, 2 * latent, 3, 1, 1))
        self.decoder = nn.Sequential(nn.ConvTranspose2d(latent, hidden, 4, 2, 1), nn.SiLU())
        self.conv_out = nn.Conv2d(hidden, ch, 3, 1, 1)

    def forward(self, x):
        mean, logvar = self.encoder(x).chunk(2, dim=1)
        z = mean + torch.exp(0.5 * logvar) * torch.randn_like(mean)
        return self.conv_out(self.decoder(z)), mean, logvar


class PatchDiscriminator(nn.Module):
    def __init__(self, ch=1, hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(ch, hidden, 4, 2, 1), nn.LeakyReLU(0.2),
                                 nn.Conv2d(hidden, 1, 3, 1, 1))

    def forward(self, x):
        return self.net(x)


def ae_loss(x, rec, mean, logvar, logits_fake, kl_weight=1e-3, d_weight=0.1):
    rec_loss = (x - rec).abs().mean()
    kl = 0.5 * (mean.pow(2) + logvar.exp() - 1.0 - logvar).mean()
    g_loss = -logits_fake.mean()
    return rec_loss + kl_weight * kl + d_weight * g_loss


def disc_loss(logits_real, logits_fake):
    return 0.5 * (F.relu(1.0 - logits_real).mean() + F.relu(1.0 + logits_fake).mean())
