"""A GAN step that updates the discriminator between two backward passes of one forward.

`d_fake` is computed once and used for both losses: after opt_d.step() changed D's weights,
the generator's backward still needs the old ones.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
G = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
D = nn.Sequential(nn.Linear(2, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3)
opt_d = torch.optim.Adam(D.parameters(), lr=1e-3)
bce = nn.BCEWithLogitsLoss()

real = torch.randn(16, 2)
z = torch.randn(16, 4)

fake = G(z)
d_fake = D(fake)
d_loss = bce(D(real), torch.ones(16, 1)) + bce(d_fake, torch.zeros(16, 1))
opt_d.zero_grad()
d_loss.backward(retain_graph=True)
opt_d.step()

g_loss = bce(d_fake, torch.ones(16, 1))
opt_g.zero_grad()
g_loss.backward()
opt_g.step()
