"""An autoencoder's loss sums a reconstruction term and a latent penalty; the penalty is averaged
over the latent dims only, so it stays one value per sample and so does the sum."""
import torch
from torch import nn


class AutoEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(12, 4)
        self.dec = nn.Linear(4, 12)

    def forward(self, x):
        z = self.enc(x)
        penalty = z.pow(2).mean(dim=1)
        return self.dec(z), penalty


def total_loss(recon, x, penalty, weights):
    terms = {"recon": nn.functional.mse_loss(recon, x), "latent": penalty}
    return sum(weights[k] * v for k, v in terms.items())


torch.manual_seed(0)
model = AutoEncoder()
x = torch.randn(6, 12)
recon, penalty = model(x)
loss = total_loss(recon, x, penalty, {"recon": 1.0, "latent": 0.1})
loss.backward()
