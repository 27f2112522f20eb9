import torch
import torch.nn as nn
import torch.nn.functional as F

from attention import MultiheadAttention


class MPTBlock(nn.Module):
    def __init__(self, config):
        super().__init__()
        a = config.attn_config
        self.norm_1 = nn.LayerNorm(config.d_model)
        self.attn = MultiheadAttention(config.d_model, config.n_heads, a["attn_impl"], a["attn_pdrop"],
                                       a["softmax_scale"])
        self.norm_2 = nn.LayerNorm(config.d_model)
        self.ffn = nn.Sequential(
            nn.Linear(config.d_model, config.expansion_ratio * config.d_model), nn.GELU(),
            nn.Linear(config.expansion_ratio * config.d_model, config.d_model),
        )
        self.resid_drop = nn.Dropout(config.resid_pdrop)

    def forward(self, x, attn_bias=None):
        x = x + self.resid_drop(self.attn(self.norm_1(x), attn_bias))
        return x + self.resid_drop(self.ffn(self.norm_2(x)))


class MPTForCausalLM(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.wte = nn.Embedding(config.vocab_size, config.d_model)
        self.emb_drop = nn.Dropout(config.emb_pdrop)
        self.blocks = nn.ModuleList([MPTBlock(config) for _ in range(config.n_layers)])
        self.norm_f = nn.LayerNorm(config.d_model)

    def _attn_bias(self, seq_len, prefix_mask=None):
        causal = torch.ones(seq_len, seq_len, dtype=torch.bool).tril()
        allowed = causal[None, None]
        if self.config.attn_config["prefix_lm"] and prefix_mask is not None:
            bidir = prefix_mask[:, None, None, :].bool() & prefix_mask[:, None, :, None].bool()
            allowed = allowed | bidir
        bias = torch.zeros(allowed.shape)
        return bias.masked_fill(~allowed, torch.finfo(bias.dtype).min)

    def forward(self, input_ids, prefix_mask=None, labels=None):
        x = self.emb_drop(self.wte(input_ids))
        bias = self._attn_bias(input_ids.shape[1], prefix_mask)
        for block in self.blocks:
            x = block(x, bias)
        logits = F.linear(self.norm_f(x), self.wte.weight)
        loss = None
        if labels is not None:
            loss = F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), labels[:, 1:].reshape(-1),
                                   ignore_index=-100)
        return logits, loss
