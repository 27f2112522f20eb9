import torch
import torch.nn.functional as F


def recon_loss(x, x_recon):
    return F.mse_loss(x_recon, x, reduction="sum").div(x.size(0))


def kl_divergence(mu, logvar):
    return 0.5 * (-1 - logvar + mu.pow(2) + logvar.exp()).sum(1).mean()


def permute_dims(z):
    B, _ = z.size()
    perm_z = []
    for z_j in z.split(1, 1):
        perm = torch.randperm(B).to(z.device)
        perm_z.append(z_j[perm])
    return torch.cat(perm_z, 1)
