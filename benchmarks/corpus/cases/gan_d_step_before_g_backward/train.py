import torch
import torch.nn as nn


class FramePredictor(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.enc = nn.GRU(dim, 64, batch_first=True)
        self.dec = nn.Linear(64, dim)

    def forward(self, frames):
        h, _ = self.enc(frames)
        return self.dec(h[:, -1])


class FrameCritic(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))

    def forward(self, frame):
        return self.net(frame)


def adversarial_losses(netG, netD, past, target):
    pred = netG(past)
    loss_recon = (pred - target).abs().mean()
    d_real = netD(target)
    d_fake = netD(pred.detach())
    loss_netD = torch.relu(1 - d_real).mean() + torch.relu(1 + d_fake).mean()
    loss_netG = loss_recon - 0.01 * netD(pred).mean()
    return loss_netD, loss_netG


def train(netG, netD, optimizer_netG, optimizer_netD, loader):
    for it, (past, target) in enumerate(loader):
        loss_netD, loss_netG = adversarial_losses(netG, netD, past, target)

        # Train D
        optimizer_netD.zero_grad()
        loss_netD.backward()
        optimizer_netD.step()

        # Train G
        optimizer_netG.zero_grad()
        loss_netG.backward()
        optimizer_netG.step()
        print(f"iter {it}: D {loss_netD.item():.3f} G {loss_netG.item():.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    G, D = FramePredictor(), FrameCritic()
    opt_G = torch.optim.Adam(G.parameters(), lr=1e-3)
    opt_D = torch.optim.Adam(D.parameters(), lr=1e-3)
    data = [(torch.randn(4, 6, 32), torch.randn(4, 32)) for _ in range(3)]
    train(G, D, opt_G, opt_D, data)
