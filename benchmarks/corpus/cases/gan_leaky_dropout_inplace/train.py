import torch
import torch.nn as nn

from model import Discriminator, Generator

torch.manual_seed(0)
LATENT = 16
BATCH = 32

G = Generator(LATENT)
D = Discriminator()
criterion = nn.BCELoss()
d_optimizer = torch.optim.Adam(D.parameters(), lr=2e-4)
g_optimizer = torch.optim.Adam(G.parameters(), lr=2e-4)


def real_batch():
    return torch.randn(BATCH, 64) * 0.5 + 1.0


for step in range(5):
    images = real_batch()
    real_labels = torch.ones(BATCH, 1)
    fake_labels = torch.zeros(BATCH, 1)

    # train the discriminator
    z = torch.randn(BATCH, LATENT)
    fake_images = G(z)
    D_real = D(images)
    D_fake = D(fake_images.detach())
    D_loss = criterion(D_real, real_labels) + criterion(D_fake, fake_labels)

    d_optimizer.zero_grad()
    D_loss.backward()
    d_optimizer.step()

    # train the generator
    z = torch.randn(BATCH, LATENT)
    G_loss = criterion(D(G(z)), real_labels)
    g_optimizer.zero_grad()
    G_loss.backward()
    g_optimizer.step()

    print(f"step {step}: D_loss={D_loss.item():.4f} G_loss={G_loss.item():.4f}")
