import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def gelu(x):
    return 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * torch.pow(x, 3))))


class Attention(nn.Module):
    def __init__(self, nx, n_ctx, cfg):
        super().__init__()
        self.n_head = cfg["n_head"]
        self.register_buffer("b", torch.tril(torch.ones(n_ctx, n_ctx)).view(1, 1, n_ctx, n_ctx))
        self.c_attn = nn.Linear(nx, nx * 3)
        self.c_proj = nn.Linear(nx, nx)
        self.attn_dropout = nn.Dropout(cfg["attn_pdrop"])

    def split_heads(self, x):
        b, t, c = x.shape
        return x.view(b, t, self.n_head, c // self.n_head).transpose(1, 2)

    def forward(self, x):
        q, k, v = self.c_attn(x).split(x.size(-1), dim=2)
        q, k, v = self.split_heads(q), self.split_heads(k), self.split_heads(v)
        w = q @ k.transpose(-1, -2) / math.sqrt(v.size(-1))
        t = x.size(1)
        w = w * self.b[:, :, :t, :t] + -1e9 * (1 - self.b[:, :, :t, :t])
        w = self.attn_dropout(F.softmax(w, dim=-1))
        a = (w @ v).transpose(1, 2).reshape(x.shape)
        return self.c_proj(a)


class Block(nn.Module):
    def __init__(self, n_ctx, cfg):
        super().__init__()
        nx = cfg["n_embd"]
        self.attn = Attention(nx, n_ctx, cfg)
        self.ln_1 = nn.LayerNorm(nx)
        self.mlp = nn.Sequential(nn.Linear(nx, 4 * nx), nn.GELU(approximate="tanh"), nn.Linear(4 * nx, nx))
        self.ln_2 = nn.LayerNorm(nx)

    def forward(self, x):
        n = self.ln_1(x + self.attn(x))
        return self.ln_2(n + self.mlp(n))


class TransformerModel(nn.Module):
    def __init__(self, cfg, vocab, n_ctx):
        super().__init__()
        self.vocab = vocab
        self.embed = nn.Embedding(vocab, cfg["n_embd"])
        self.drop = nn.Dropout(cfg["embd_pdrop"])
        self.h = nn.ModuleList([Block(n_ctx, cfg) for _ in range(cfg["n_layer"])])
        nn.init.normal_(self.embed.weight, std=0.02)

    def forward(self, x):
        x = x.view(-1, x.size(-2), x.size(-1))
        e = self.embed(x)
        h = self.drop(e.sum(dim=2))
        for block in self.h:
            h = block(h)
        return h


class LMHead(nn.Module):
    def __init__(self, model, cfg):
        super().__init__()
        self.n_embd = cfg["n_embd"]
        self.decoder = nn.Linear(cfg["n_embd"], model.vocab, bias=False)
        self.decoder.weight = model.embed.weight

    def forward(self, h):
        return self.decoder(h[:, :-1].contiguous().view(-1, self.n_embd))


class ClfHead(nn.Module):
    def __init__(self, clf_token, cfg):
        super().__init__()
        self.n_embd = cfg["n_embd"]
        self.clf_token = clf_token
        self.dropout = nn.Dropout(cfg["clf_pdrop"])
        self.linear = nn.Linear(cfg["n_embd"], 1)
        nn.init.normal_(self.linear.weight, std=0.02)
        nn.init.normal_(self.linear.bias, 0)

    def forward(self, h, x):
        clf_h = h.view(-1, self.n_embd)
        flat = x[..., 0].contiguous().view(-1)
        clf_h = clf_h[flat == self.clf_token, :]
        clf_h = clf_h.view(-1, x.size(1), self.n_embd, 1)
        clf_h = self.dropout(clf_h.transpose(2, 3)).contiguous().view(-1, self.n_embd)
        return self.linear(clf_h).view(-1, x.size(1))
