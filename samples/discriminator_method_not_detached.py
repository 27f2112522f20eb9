"""The discriminator step scores the generator's soft samples through a method of its own (not
its forward) without detaching them; its backward frees the generator's graph, which the
generator's loss then goes through again."""
import torch
from torch import nn


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(6, 1)

    def score_soft(self, probabilities):
        return self.body(probabilities).mean()


torch.manual_seed(0)
generator, discriminator = nn.Linear(3, 6), Discriminator()
opt_g = torch.optim.Adam(generator.parameters(), lr=1e-3)
opt_d = torch.optim.Adam(discriminator.parameters(), lr=1e-3)
for step in range(2):
    soft = torch.softmax(generator(torch.randn(8, 3)), -1)
    d_loss = discriminator.score_soft(soft)
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = -discriminator.score_soft(soft)
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
