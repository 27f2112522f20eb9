import torch
import torch.nn as nn
import torch.nn.functional as F


def full_attn(q, k, v):
    dots = q @ k.transpose(-1, -2) * q.shape[-1] ** -0.5
    return dots.softmax(dim=-1) @ v


class ConvCompress(nn.Module):
    def __init__(self, dim, ratio=4):
        super().__init__()
        self.conv = nn.Conv1d(dim, dim, ratio, stride=ratio)

    def forward(self, mem):
        return self.conv(mem.transpose(1, 2)).transpose(1, 2)


class CompressiveAttention(nn.Module):
    def __init__(self, dim, mem_len, cmem_ratio=4):
        super().__init__()
        self.mem_len = mem_len
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_kv = nn.Linear(dim, 2 * dim, bias=False)
        self.to_out = nn.Linear(dim, dim)
        self.compress_mem_fn = ConvCompress(dim, cmem_ratio)

    def forward(self, x, mem, cmem):
        q = self.to_q(x)
        k, v = self.to_kv(torch.cat((cmem, mem, x), dim=1)).chunk(2, dim=-1)
        out = self.to_out(full_attn(q, k, v))

        # memory that falls out of the window is compressed instead of dropped
        full_mem = torch.cat((mem, x), dim=1)
        old_mem, new_mem = full_mem[:, :-self.mem_len], full_mem[:, -self.mem_len:]
        aux_loss = torch.zeros(())
        if old_mem.shape[1] == 0:
            return out, new_mem.detach(), cmem, aux_loss
        compressed_mem = self.compress_mem_fn(old_mem.detach())
        new_cmem = torch.cat((cmem, compressed_mem), dim=1)[:, -(self.mem_len // 2):]

        # attention-reconstruction auxiliary loss for the compression network
        old_k, old_v = self.to_kv(old_mem).chunk(2, dim=-1)
        cmem_k, cmem_v = self.to_kv(compressed_mem).chunk(2, dim=-1)
        q, old_k, old_v, cmem_k, cmem_v = map(torch.detach, (q, old_k, old_v, cmem_k, cmem_v))
        aux_loss = F.mse_loss(full_attn(q, old_k, old_v), full_attn(q, cmem_k, cmem_v))
        return out, new_mem.detach(), new_cmem.detach(), aux_loss


class CompressiveTransformer(nn.Module):
    def __init__(self, num_tokens=50, dim=32, mem_len=8):
        super().__init__()
        self.mem_len = mem_len
        self.token_emb = nn.Embedding(num_tokens, dim)
        self.attn = CompressiveAttention(dim, mem_len)
        self.ff = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 64), nn.GELU(), nn.Linear(64, dim))
        self.to_logits = nn.Linear(dim, num_tokens)

    def forward(self, tokens, mem, cmem):
        x = self.token_emb(tokens)
        h, mem, cmem, aux_loss = self.attn(x, mem, cmem)
        x = x + h
        x = x + self.ff(x)
        return self.to_logits(x), mem, cmem, aux_loss
