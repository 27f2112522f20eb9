import torch
import torch.nn as nn

LATENT, DIM, BATCH = 8, 16, 32


def make_models():
    G = nn.Sequential(nn.Linear(LATENT, 64), nn.ReLU(), nn.Linear(64, DIM), nn.Tanh())
    D = nn.Sequential(nn.Linear(DIM, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))
    return G, D


def main():
    torch.manual_seed(0)
    G, D = make_models()
    criterion = nn.BCEWithLogitsLoss()
    opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
    opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
    ones, zeros = torch.ones(BATCH, 1), torch.zeros(BATCH, 1)
    for it in range(5):
        real = torch.rand(BATCH, DIM) * 2 - 1
        fake = G(torch.randn(BATCH, LATENT))

        opt_d.zero_grad()
        d_loss = criterion(D(real), ones) + criterion(D(fake.detach()), zeros)
        d_loss.backward()
        opt_d.step()

        opt_g.zero_grad()
        g_loss = criterion(D(fake), ones)
        g_loss.backward()
        opt_g.step()
        print(f"iter {it}: d {d_loss.item():.4f} g {g_loss.item():.4f}")


if __name__ == "__main__":
    main()
