import torch
import torch.nn as nn
import torch.nn.functional as F

from sn_layers import Discriminator

Z_DIM, X_DIM = 16, 64


def d_hinge_loss(d_real, d_fake):
    return F.relu(1.0 - d_real).mean() + F.relu(1.0 + d_fake).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    G = nn.Sequential(nn.Linear(Z_DIM, 128), nn.ReLU(), nn.Linear(128, X_DIM), nn.Tanh())
    D = Discriminator(X_DIM)
    opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.0, 0.9))
    opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.0, 0.9))
    for it in range(4):
        real = torch.rand(32, X_DIM) * 2 - 1
        fake = G(torch.randn(32, Z_DIM))

        d_real = D(real)
        d_fake = D(fake.detach())
        d_loss = d_hinge_loss(d_real, d_fake)
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()

        g_loss = -D(fake).mean()
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        print(f"iter {it}: d_loss {d_loss.item():.4f} g_loss {g_loss.item():.4f}")
