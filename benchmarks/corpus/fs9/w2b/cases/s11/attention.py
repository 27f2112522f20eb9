import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvCompress(nn.Module):
    def __init__(self, dim, ratio=2):
        super().__init__()
        self.conv = nn.Conv1d(dim, dim, ratio, stride=ratio)

    def forward(self, mem):
        return self.conv(mem.transpose(1, 2)).transpose(1, 2)


class MemoryCompressedAttention(nn.Module):
    def __init__(self, dim, heads=4, causal=False, compression_factor=2, dropout=0.0):
        super().__init__()
        assert dim % heads == 0
        self.heads = heads
        self.causal = causal
        self.compression_factor = compression_factor
        self.compress_fn = ConvCompress(dim, compression_factor)
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_kv = nn.Linear(dim, dim * 2, bias=False)
        self.to_out = nn.Linear(dim, dim)
        self.dropout = nn.Dropout(dropout)
        self.null_k = nn.Parameter(torch.zeros(1, 1, dim))
        self.null_v = nn.Parameter(torch.zeros(1, 1, dim))

    def forward(self, x):
        b, t, d, h, cf = *x.shape, self.heads, self.compression_factor
        q = self.to_q(x)
        k, v = self.to_kv(x).chunk(2, dim=-1)
        padding = cf - (t % cf)
        if padding < cf:
            k, v = map(lambda z: F.pad(z, (0, 0, padding, 0)), (k, v))
        k, v = map(self.compress_fn, (k, v))
        nk, nv = map(lambda z: z.expand(b, -1, -1), (self.null_k, self.null_v))
        k = torch.cat((nk, k), dim=1)
        v = torch.cat((nv, v), dim=1)
        q, k, v = map(lambda z: z.reshape(b, -1, h, d // h).transpose(1, 2), (q, k, v))
        dots = torch.einsum("bhid,bhjd->bhij", q, k) * (d // h) ** -0.5
        if self.causal:
            mask_q = mask_k = torch.arange(t, device=x.device)
            if padding < cf:
                mask_k = F.pad(mask_k, (padding, 0))
            mask_k, _ = mask_k.reshape(-1, cf).max(dim=-1)
            mask = mask_q[:, None] < mask_k[None, :]
            mask = F.pad(mask, (1, 0), value=False)
            dots.masked_fill_(mask[None, None, ...], -float("-inf"))
        attn = self.dropout(dots.softmax(dim=-1))
        out = torch.einsum("bhij,bhjd->bhid", attn, v)
        out = out.transpose(1, 2).reshape(b, t, d)
        return self.to_out(out)
