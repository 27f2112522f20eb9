import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, n_head):
        super().__init__()
        self.n_head = n_head
        self.q_proj = nn.Linear(dim, dim, bias=False)
        self.k_proj = nn.Linear(dim, dim, bias=False)
        self.v_proj = nn.Linear(dim, dim, bias=False)
        self.out_proj = nn.Linear(dim, dim, bias=False)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = (proj(x).view(B, T, self.n_head, -1).transpose(1, 2) for proj in (self.q_proj, self.k_proj, self.v_proj))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.out_proj(y.transpose(1, 2).reshape(B, T, C))


class Block(nn.Module):
    def __init__(self, dim, n_head):
        super().__init__()
        self.ln = nn.LayerNorm(dim)
        self.attn = Attention(dim, n_head)
        self.fc_in = nn.Linear(dim, 4 * dim)
        self.fc_out = nn.Linear(4 * dim, dim)

    def forward(self, x):
        h = self.ln(x)
        return x + self.attn(h) + self.fc_out(F.gelu(self.fc_in(h)))


class TinyGPTJ(nn.Module):
    def __init__(self, vocab=256, dim=64, n_layer=2, n_head=4):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList([Block(dim, n_head) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, input_ids, labels=None):
        x = self.wte(input_ids)
        for block in self.blocks:
            x = block(x)
        logits = self.lm_head(self.ln_f(x))
        loss = None
        if labels is not None:
            loss = F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)), labels[:, 1:].reshape(-1))
        return logits, loss
