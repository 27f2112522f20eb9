import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Block(nn.Module):
    def __init__(self, d_model, n_heads, dropout):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = nn.MultiheadAttention(d_model, n_heads, dropout=dropout, batch_first=True)
        self.ln2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(
            nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model), nn.Dropout(dropout)
        )

    def forward(self, x):
        T = x.size(1)
        mask = torch.triu(torch.ones(T, T, dtype=torch.bool, device=x.device), diagonal=1)
        h = self.ln1(x)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        x = x + self.mlp(self.ln2(x))
        return x


class CodeTransformer(nn.Module):
    def __init__(self, codebook, cfg):
        super().__init__()
        self.codebook = codebook
        d = cfg["d_model"]
        self.in_proj = nn.Linear(codebook.embedding.embedding_dim, d)
        self.sos = nn.Parameter(torch.zeros(1, 1, d))
        self.pos_emb = nn.Parameter(torch.zeros(1, cfg["block_size"], d))
        self.blocks = nn.ModuleList(
            [Block(d, cfg["n_heads"], cfg["dropout"]) for _ in range(cfg["n_layers"])]
        )
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, codebook.embedding.num_embeddings)
        self.use_checkpoint = cfg["use_checkpoint"]
        nn.init.normal_(self.pos_emb, std=0.02)

    def own_parameters(self):
        return [p for n, p in self.named_parameters() if not n.startswith("codebook.")]

    def forward(self, codes):
        B, T = codes.shape
        x = self.in_proj(self.codebook.embed(codes[:, :-1]))
        x = torch.cat([self.sos.expand(B, -1, -1), x], dim=1)
        x = x + self.pos_emb[:, :T]
        for block in self.blocks:
            if self.use_checkpoint and self.training:
                x = checkpoint(block, x)
            else:
                x = block(x)
        return self.head(self.ln_f(x))
