"""A VAE's training step computes the KL term and logs it, but builds the loss from the
reconstruction alone: the KL term never reaches the encoder's variance head."""
import torch
from torch import nn


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(10, 8)
        self.mu = nn.Linear(8, 2)
        self.logvar = nn.Linear(8, 2)
        self.dec = nn.Linear(2, 10)

    def forward(self, x):
        h = torch.relu(self.enc(x))
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(z), mu, logvar


def train_step(model, optimizer, x, beta=0.5):
    recon, mu, logvar = model(x)
    recon_loss = nn.functional.mse_loss(recon, x)
    kl = -0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).sum(dim=1).mean()
    loss = recon_loss
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return recon_loss.item(), kl.item()


torch.manual_seed(0)
model = VAE()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(3):
    print(train_step(model, optimizer, torch.randn(16, 10)))
