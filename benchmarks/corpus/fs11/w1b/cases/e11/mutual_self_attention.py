import torch
import torch.nn as nn


class ReferenceAttentionControl:
    """Shares self-attention features from a reference network with a denoising network.

    The writer network stores the normalized hidden states of every transformer block
    in that block's bank; the reader network's matching block attends over its own
    tokens concatenated with the banked reference tokens.
    """

    def __init__(self, unet, mode="write"):
        assert mode in ("read", "write")
        self.unet = unet
        self.mode = mode
        for block in self.blocks():
            block.attn_mode = mode
            block.bank = []

    def blocks(self):
        return [m for m in self.unet.modules() if isinstance(m, RefTransformerBlock)]

    def update(self, writer):
        for r, w in zip(self.blocks(), writer.blocks()):
            r.bank = [feat.clone() for feat in w.bank]

    def clear(self):
        for block in self.blocks():
            block.bank.clear()


class RefTransformerBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn1 = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.attn_mode = None
        self.bank = []

    def forward(self, hidden_states, temb):
        norm_hidden_states = self.norm1(hidden_states + temb[:, None, :])
        if self.attn_mode == "write":
            self.bank.append(norm_hidden_states.clone())
            context = norm_hidden_states
        elif self.attn_mode == "read":
            context = torch.cat([norm_hidden_states] + self.bank, dim=1)
        else:
            context = norm_hidden_states
        attn_out, _ = self.attn1(norm_hidden_states, context, context, need_weights=False)
        hidden_states = hidden_states + attn_out
        hidden_states = hidden_states + self.ff(self.norm2(hidden_states))
        return hidden_states
