"""A generator trained on reconstruction plus an adversarial term; the adversarial term is taken
from the discriminator's output after .detach(), so it adds a number and no gradient."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
gen = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 8))
disc = nn.Sequential(nn.Linear(8, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
opt = torch.optim.Adam(gen.parameters(), lr=1e-3)
for step in range(3):
    x = torch.randn(16, 8)
    fake = gen(x)
    rec_loss = F.mse_loss(fake, x)
    adv_loss = F.softplus(-disc(fake).detach()).mean()  # cuts the generator off
    loss = rec_loss + 0.1 * adv_loss
    opt.zero_grad()
    loss.backward()
    opt.step()
print("trained")
