"""A pix2pix-style model: forward() keeps the generator's output on `self.fake`; the
discriminator's backward uses it without detach(), so the generator's backward finds its graph
freed. Detaching `self.fake` where it is stored would stop the generator from training; the
fix is `self.D(self.fake.detach())` in backward_D."""
import torch
import torch.nn as nn


class Pix2Pix:
    def __init__(self):
        self.G, self.D = nn.Linear(3, 3), nn.Linear(3, 1)
        self.opt_G = torch.optim.SGD(self.G.parameters(), lr=0.1)
        self.opt_D = torch.optim.SGD(self.D.parameters(), lr=0.1)

    def forward(self, z):
        self.fake = torch.tanh(self.G(z))

    def backward_D(self, real):
        loss_D = self.D(self.fake).mean() - self.D(real).mean()
        loss_D.backward()

    def backward_G(self):
        loss_G = -self.D(self.fake).mean()
        loss_G.backward()

    def optimize(self, z, real):
        self.forward(z)
        self.opt_D.zero_grad()
        self.backward_D(real)
        self.opt_D.step()
        self.opt_G.zero_grad()
        self.backward_G()
        self.opt_G.step()


torch.manual_seed(0)
model = Pix2Pix()
for _ in range(2):
    model.optimize(torch.randn(4, 3), torch.randn(4, 3))
