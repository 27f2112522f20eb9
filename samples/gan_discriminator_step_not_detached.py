"""A GAN whose discriminator step scores the generator's batch without detach(): the
discriminator's backward frees the generator's graph too, and the generator's backward then
fails. The line to change is the discriminator step's `disc(fake)` (role linked): `fake.detach()`."""
import torch
import torch.nn as nn


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 3))

    def forward(self, z):
        return torch.tanh(self.net(z))


torch.manual_seed(0)
gen, disc = Generator(), nn.Sequential(nn.Linear(3, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))
opt_g = torch.optim.Adam(gen.parameters(), lr=1e-3)
opt_d = torch.optim.Adam(disc.parameters(), lr=1e-3)
for step in range(2):
    fake = gen(torch.randn(4, 2))
    d_loss = disc(torch.randn(4, 3)).mean() - disc(fake).mean()
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = -disc(fake).mean()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
