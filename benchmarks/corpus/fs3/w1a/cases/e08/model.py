"""Discrete-latent VAE with binary codes and an optional learned Bernoulli prior."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Bernoulli, RelaxedBernoulli


class BinaryVAE(nn.Module):
    def __init__(self, x_dim=64, h_dim=128, z_dim=16, prior="fixed", prior_p=0.5, temperature=0.5):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(x_dim, h_dim), nn.ReLU(), nn.Linear(h_dim, z_dim))
        self.decoder = nn.Sequential(nn.Linear(z_dim, h_dim), nn.ReLU(), nn.Linear(h_dim, x_dim))
        self.temperature = temperature
        init = torch.full((z_dim,), prior_p)
        if prior == "learned":
            self.prior_probs = nn.Parameter(init)
        else:
            self.register_buffer("prior_probs", init)
        self.prior = Bernoulli(probs=self.prior_probs)

    def posterior(self, x):
        return Bernoulli(logits=self.encoder(x))

    def sample(self, q_z):
        relaxed = RelaxedBernoulli(torch.tensor(self.temperature), logits=q_z.logits).rsample()
        hard = (relaxed > 0.5).float()
        return hard + relaxed - relaxed.detach(), hard

    def forward(self, x):
        q_z = self.posterior(x)
        z, codes = self.sample(q_z)
        return self.decoder(z), q_z, codes


def elbo_loss(model, x, beta=1.0):
    x_logits, q_z, codes = model(x)
    rec = F.binary_cross_entropy_with_logits(x_logits, x, reduction="none").sum(-1)
    kl = (q_z.log_prob(codes) - model.prior.log_prob(codes)).sum(-1)
    return (rec + beta * kl).mean(), rec.mean().item(), kl.mean().item()
