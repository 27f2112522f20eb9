import torch
import torch.nn.functional as F
from torch import nn


class VectorQuantize(nn.Module):
    def __init__(self, input_dim, codebook_size, codebook_dim):
        super().__init__()
        self.in_proj = nn.Conv1d(input_dim, codebook_dim, 1)
        self.out_proj = nn.Conv1d(codebook_dim, input_dim, 1)
        self.codebook = nn.Embedding(codebook_size, codebook_dim)

    def forward(self, z):
        z_e = self.in_proj(z)
        z_q, indices = self.decode_latents(z_e)
        commitment_loss = F.mse_loss(z_e, z_q.detach(), reduction="none").mean([1, 2])
        codebook_loss = F.mse_loss(z_q, z_e.detach())
        z_q = z_e + (z_q - z_e).detach()
        return self.out_proj(z_q), commitment_loss, codebook_loss, indices

    def decode_latents(self, latents):
        b, d, t = latents.shape
        enc = F.normalize(latents.transpose(1, 2).reshape(b * t, d))
        cb = F.normalize(self.codebook.weight)
        dist = enc.pow(2).sum(1, keepdim=True) - 2 * enc @ cb.t() + cb.pow(2).sum(1, keepdim=True).t()
        indices = (-dist).max(1)[1].view(b, t)
        z_q = self.codebook(indices).transpose(1, 2)
        return z_q, indices


class ResidualVectorQuantize(nn.Module):
    def __init__(self, input_dim=32, n_codebooks=4, codebook_size=64, codebook_dim=8):
        super().__init__()
        self.quantizers = nn.ModuleList(
            [VectorQuantize(input_dim, codebook_size, codebook_dim) for _ in range(n_codebooks)]
        )

    def forward(self, z):
        z_q = 0
        residual = z
        commitment_loss = 0
        codebook_loss = 0
        codes = []
        for quantizer in self.quantizers:
            z_q_i, commit_i, cb_i, idx_i = quantizer(residual)
            z_q = z_q + z_q_i
            residual = residual - z_q_i
            commitment_loss = commitment_loss + commit_i
            codebook_loss = codebook_loss + cb_i
            codes.append(idx_i)
        return z_q, torch.stack(codes, 1), commitment_loss, codebook_loss
