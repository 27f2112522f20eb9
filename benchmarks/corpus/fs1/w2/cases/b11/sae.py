import torch
import torch.nn as nn


class TopKSAE(nn.Module):
    def __init__(self, d_model, d_hidden, k):
        super().__init__()
        self.k = k
        self.W_enc = nn.Parameter(torch.randn(d_model, d_hidden) / d_model**0.5)
        self.b_enc = nn.Parameter(torch.zeros(d_hidden))
        self.W_dec = nn.Parameter(self.W_enc.detach().t().clone())
        self.b_dec = nn.Parameter(torch.zeros(d_model))

    def pre_acts(self, x):
        return torch.relu((x - self.b_dec) @ self.W_enc + self.b_enc)

    def topk(self, acts, k):
        vals, idx = acts.topk(k, dim=-1)
        return torch.zeros_like(acts).scatter(-1, idx, vals)

    def decode(self, z):
        return z @ self.W_dec + self.b_dec

    def forward(self, x):
        acts = self.pre_acts(x)
        z = self.topk(acts, self.k)
        return self.decode(z), z, acts
