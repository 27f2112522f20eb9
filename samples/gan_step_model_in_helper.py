"""A GAN step where the generator's loss is built (through the discriminator) before the
discriminator's optimizer step, and backpropagated after it. The weight the failing backward
needs was saved inside Discriminator.forward; the line to change is the helper's `disc(fake)`
call that ran that forward before the step (issue 16: the line that built the graph through the
stepped module)."""
import torch
import torch.nn as nn


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(3, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))

    def forward(self, x):
        return self.body(x)


def losses(gen, disc, noise, real):
    fake = gen(noise)
    d_loss = disc(real).mean() - disc(fake.detach()).mean()
    g_loss = -disc(fake).mean()
    return d_loss, g_loss


torch.manual_seed(0)
gen, disc = nn.Linear(2, 3), Discriminator()
opt_g = torch.optim.Adam(gen.parameters(), lr=1e-3)
opt_d = torch.optim.Adam(disc.parameters(), lr=1e-3)
for step in range(2):
    d_loss, g_loss = losses(gen, disc, torch.randn(4, 2), torch.randn(4, 3))
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
