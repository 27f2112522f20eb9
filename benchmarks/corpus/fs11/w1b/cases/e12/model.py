import torch
import torch.nn as nn
import torch.nn.functional as F

from hook_points import HookedRootModule, HookPoint


class Attention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.W_QKV = nn.Linear(d_model, 3 * d_model)
        self.W_O = nn.Linear(d_model, d_model)
        self.hook_pattern = HookPoint()

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.W_QKV(x).split(d, dim=-1)
        q = q.view(b, t, self.n_heads, self.d_head).transpose(1, 2)
        k = k.view(b, t, self.n_heads, self.d_head).transpose(1, 2)
        v = v.view(b, t, self.n_heads, self.d_head).transpose(1, 2)
        scores = q @ k.transpose(-1, -2) / self.d_head ** 0.5
        causal = torch.ones(t, t, dtype=torch.bool).tril()
        pattern = self.hook_pattern(scores.masked_fill(~causal, float("-inf")).softmax(-1))
        z = (pattern @ v).transpose(1, 2).reshape(b, t, d)
        return self.W_O(z)


class TransformerBlock(nn.Module):
    def __init__(self, d_model, n_heads, d_mlp):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = Attention(d_model, n_heads)
        self.ln2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, d_mlp), nn.GELU(), nn.Linear(d_mlp, d_model))
        self.hook_resid_pre = HookPoint()
        self.hook_resid_mid = HookPoint()
        self.hook_resid_post = HookPoint()

    def forward(self, resid):
        resid = self.hook_resid_pre(resid)
        resid = self.hook_resid_mid(resid + self.attn(self.ln1(resid)))
        return self.hook_resid_post(resid + self.mlp(self.ln2(resid)))


class HookedTransformer(HookedRootModule):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg["d_vocab"], cfg["d_model"])
        self.pos_embed = nn.Parameter(torch.randn(cfg["n_ctx"], cfg["d_model"]) * 0.02)
        self.hook_embed = HookPoint()
        self.blocks = nn.ModuleList(
            [TransformerBlock(cfg["d_model"], cfg["n_heads"], cfg["d_mlp"]) for _ in range(cfg["n_layers"])]
        )
        self.ln_final = nn.LayerNorm(cfg["d_model"])
        self.unembed = nn.Linear(cfg["d_model"], cfg["d_vocab"], bias=False)
        self.setup()

    def forward(self, tokens):
        resid = self.hook_embed(self.embed(tokens) + self.pos_embed[: tokens.size(1)])
        for block in self.blocks:
            resid = block(resid)
        return self.unembed(self.ln_final(resid))

    def loss_fn(self, logits, tokens):
        return F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)), tokens[:, 1:].reshape(-1))
