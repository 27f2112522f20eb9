"""A WGAN-GP round: the critic loop makes `fake` (several backward calls), then the generator
loop reuses that same `fake` for each of its steps; its second step backpropagates through a
generator graph whose weights the first step changed in place."""
import torch
import torch.nn as nn

torch.manual_seed(0)
G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
D = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3)
opt_d = torch.optim.Adam(D.parameters(), lr=1e-3)
real = torch.randn(8, 2)
for critic_step in range(3):
    D.zero_grad()
    (-D(real).mean()).backward()
    fake = G(torch.randn(8, 4))
    D(fake.detach()).mean().backward()
    opt_d.step()
for generator_step in range(2):
    G.zero_grad()
    loss_g = -D(fake).mean()
    loss_g.backward(retain_graph=True)
    opt_g.step()
