import torch
from torch import nn


class TransformerEncoderLayer(nn.Module):
    def __init__(self, embed_dim, ffn_dim, num_heads):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(embed_dim, num_heads, batch_first=True)
        self.self_attn_layer_norm = nn.LayerNorm(embed_dim)
        self.fc1 = nn.Linear(embed_dim, ffn_dim)
        self.fc2 = nn.Linear(ffn_dim, embed_dim)
        self.final_layer_norm = nn.LayerNorm(embed_dim)

    def forward(self, x, pad_mask):
        residual = x
        x, _ = self.self_attn(x, x, x, key_padding_mask=pad_mask, need_weights=False)
        x = self.self_attn_layer_norm(residual + x)
        residual = x
        x = self.fc2(torch.relu(self.fc1(x)))
        return self.final_layer_norm(residual + x)


class TransformerLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed_tokens = nn.Embedding(cfg.vocab_size, cfg.embed_dim, padding_idx=0)
        self.layers = nn.ModuleList(
            TransformerEncoderLayer(cfg.embed_dim, cfg.ffn_dim, cfg.num_heads) for _ in range(cfg.num_layers)
        )
        self.output_projection = nn.Linear(cfg.embed_dim, cfg.vocab_size)

    def forward(self, tokens):
        pad_mask = tokens.eq(0)
        x = self.embed_tokens(tokens)
        for layer in self.layers:
            x = layer(x, pad_mask)
        return self.output_projection(x)
