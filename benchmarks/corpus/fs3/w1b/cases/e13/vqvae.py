import torch
import torch.nn as nn


class Codebook(nn.Module):
    def __init__(self, n_codes, code_dim):
        super().__init__()
        self.embedding = nn.Embedding(n_codes, code_dim)
        nn.init.uniform_(self.embedding.weight, -1.0 / n_codes, 1.0 / n_codes)

    def quantize(self, z):
        flat = z.reshape(-1, z.size(-1))
        dist = torch.cdist(flat, self.embedding.weight)
        return dist.argmin(dim=-1).view(z.shape[:-1])

    def embed(self, codes):
        return self.embedding(codes)


class VQVAE(nn.Module):
    def __init__(self, in_dim=16, code_dim=32, n_codes=64):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(in_dim, 64), nn.GELU(), nn.Linear(64, code_dim))
        self.codebook = Codebook(n_codes, code_dim)
        self.decoder = nn.Sequential(nn.Linear(code_dim, 64), nn.GELU(), nn.Linear(64, in_dim))

    @torch.no_grad()
    def encode(self, x):
        return self.codebook.quantize(self.encoder(x))
