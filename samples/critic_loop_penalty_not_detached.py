"""The critic is updated three times per generator step. Its loss detaches the fake batch, but
the gradient penalty interpolates with the fake batch itself: the first critic backward goes
through the generator's graph and frees it, and the second critic iteration fails."""
import torch
import torch.nn as nn


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1)
    mixed = alpha * real + (1 - alpha) * fake
    scores = critic(mixed)
    grads = torch.autograd.grad(scores.sum(), mixed, create_graph=True)[0]
    return ((grads.norm(dim=1) - 1) ** 2).mean()


torch.manual_seed(0)
generator = nn.Linear(2, 4)
critic = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
opt_g = torch.optim.Adam(generator.parameters(), lr=1e-3)
opt_d = torch.optim.Adam(critic.parameters(), lr=1e-3)
for step in range(2):
    real = torch.randn(8, 4)
    fake = generator(torch.randn(8, 2))
    for _ in range(3):
        opt_d.zero_grad()
        loss_d = critic(fake.detach()).mean() - critic(real).mean() + 10 * gradient_penalty(critic, real, fake)
        loss_d.backward()
        opt_d.step()
    opt_g.zero_grad()
    (-critic(fake).mean()).backward()
    opt_g.step()
