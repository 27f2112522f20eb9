import torch
import torch.nn as nn
from torch import autograd

LATENT, DIM, BATCH = 8, 16, 32
LAMBDA_GP, N_CRITIC = 10.0, 3


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(LATENT, 64), nn.ReLU(), nn.Linear(64, DIM))

    def forward(self, z):
        return self.net(z)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(DIM, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x)


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1)
    interpolates = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    d_interp = critic(interpolates)
    grads = autograd.grad(outputs=d_interp, inputs=interpolates,
                          grad_outputs=torch.ones_like(d_interp),
                          create_graph=True, retain_graph=True)[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


def main():
    torch.manual_seed(0)
    G, D = Generator(), Critic()
    opt_g = torch.optim.Adam(G.parameters(), lr=1e-4, betas=(0.5, 0.9))
    opt_d = torch.optim.Adam(D.parameters(), lr=1e-4, betas=(0.5, 0.9))
    for it in range(4):
        for _ in range(N_CRITIC):
            real = torch.randn(BATCH, DIM) + 2.0
            fake = G(torch.randn(BATCH, LATENT)).detach()
            d_loss = D(fake).mean() - D(real).mean() + LAMBDA_GP * gradient_penalty(D, real, fake)
            opt_d.zero_grad()
            d_loss.backward()
            opt_d.step()
        g_loss = -D(G(torch.randn(BATCH, LATENT))).mean()
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        print(f"iter {it}: d {d_loss.item():.3f} g {g_loss.item():.3f}")


if __name__ == "__main__":
    main()
