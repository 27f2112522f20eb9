"""A generator step with two losses over one discriminator pass: the adversarial loss and a
feature-matching loss on the discriminator's features. Each is backpropagated on its own, and the
first backward frees the graph the second goes through. Both belong to the same step: keep the
graph in the first backward (retain_graph=True), or add the losses."""
import torch
from torch import nn


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 16), nn.LeakyReLU(0.2))
        self.out = nn.Linear(16, 1)

    def forward(self, x):
        features = self.body(x)
        return self.out(features), features


torch.manual_seed(0)
generator, critic = nn.Linear(2, 4), Critic()
opt_g = torch.optim.Adam(generator.parameters(), lr=1e-3)
real = torch.randn(8, 4)
opt_g.zero_grad()
score, fake_features = critic(generator(torch.randn(8, 2)))
adversarial = -score.mean()
adversarial.backward()
_, real_features = critic(real)
matching = (fake_features.mean(0) - real_features.mean(0)).pow(2).sum()
matching.backward()
opt_g.step()
