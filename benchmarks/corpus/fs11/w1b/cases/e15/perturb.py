import torch
import torch.nn as nn
import torch.nn.functional as F


class WordPerturbation(nn.Module):
    """Predicts a per-token multiplicative Gaussian noise for the word embeddings."""

    def __init__(self, hidden_size, init_std=0.1):
        super().__init__()
        self.mu = nn.Sequential(nn.Linear(hidden_size, hidden_size), nn.Tanh(), nn.Linear(hidden_size, hidden_size))
        self.log_var = nn.Sequential(nn.Linear(hidden_size, hidden_size), nn.Tanh(),
                                     nn.Linear(hidden_size, hidden_size))
        self.prior_log_var = float(2 * torch.log(torch.tensor(init_std)))

    def forward(self, embeds, mask):
        mu = self.mu(embeds)
        log_var = self.log_var(embeds)
        eps = torch.randn_like(mu)
        noise = 1.0 + mu + eps * torch.exp(0.5 * log_var)
        perturbed = embeds * (noise * mask.unsqueeze(-1) + (1 - mask.unsqueeze(-1)))
        kld = 0.5 * (log_var.exp() / torch.exp(torch.tensor(self.prior_log_var)) + mu.pow(2)
                     - 1 - log_var + self.prior_log_var)
        kld = (kld.sum(-1) * mask).sum() / mask.sum()
        return perturbed, kld


def perturbation_mask(input_ids, token_type_ids, attention_mask, special_ids):
    mask = attention_mask.float()
    for sid in special_ids:
        mask = mask * (input_ids != sid).float()
    return F.relu(mask)
