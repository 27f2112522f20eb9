"""Correct: one helper zeroes, backpropagates and steps for both players of a GAN. The generator's
backward also fills the discriminator's .grad, which the discriminator's next zero_grad() drops
on purpose: that is not lost accumulation."""
import torch
import torch.nn as nn

torch.manual_seed(0)
netG = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 8))
netD = nn.Sequential(nn.Linear(8, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
optG = torch.optim.Adam(netG.parameters(), lr=1e-3)
optD = torch.optim.Adam(netD.parameters(), lr=1e-3)
bce = nn.BCEWithLogitsLoss()


def update(loss, optimizer):
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


for step in range(3):
    real, z = torch.randn(16, 8), torch.randn(16, 4)
    fake = netG(z)
    d_loss = bce(netD(real), torch.ones(16, 1)) + bce(netD(fake.detach()), torch.zeros(16, 1))
    update(d_loss, optD)
    g_loss = bce(netD(fake), torch.ones(16, 1))
    update(g_loss, optG)
print("trained")
