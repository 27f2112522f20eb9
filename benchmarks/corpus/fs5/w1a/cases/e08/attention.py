import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def scaled_multihead_dot_product_attention(query, key, value, n_heads, softmax_scale=None,
                                           attn_bias=None, dropout_p=0.0, training=False):
    b, s, d = query.shape
    q = query.view(b, s, n_heads, d // n_heads).transpose(1, 2)
    k = key.view(b, s, n_heads, d // n_heads).permute(0, 2, 3, 1)
    v = value.view(b, s, n_heads, d // n_heads).transpose(1, 2)
    if softmax_scale is None:
        softmax_scale = 1 / math.sqrt(d // n_heads)
    attn_weight = q.matmul(k) * softmax_scale
    if attn_bias is not None:
        attn_weight = attn_weight + attn_bias
    attn_weight = torch.softmax(attn_weight, dim=-1)
    if dropout_p:
        attn_weight = F.dropout(attn_weight, p=dropout_p, training=training, inplace=True)
    out = attn_weight.matmul(v)
    return out.transpose(1, 2).reshape(b, s, d)


def sdpa_attention(query, key, value, n_heads, softmax_scale=None, attn_bias=None,
                   dropout_p=0.0, training=False):
    b, s, d = query.shape
    q, k, v = (t.view(b, s, n_heads, d // n_heads).transpose(1, 2) for t in (query, key, value))
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_bias,
                                         dropout_p=dropout_p if training else 0.0, scale=softmax_scale)
    return out.transpose(1, 2).reshape(b, s, d)


ATTN_IMPLS = {
    "torch": scaled_multihead_dot_product_attention,
    "sdpa": sdpa_attention,
}


class MultiheadAttention(nn.Module):
    def __init__(self, d_model, n_heads, attn_impl="torch", attn_pdrop=0.0, softmax_scale=None):
        super().__init__()
        self.n_heads = n_heads
        self.attn_fn = ATTN_IMPLS[attn_impl]
        self.attn_dropout_p = attn_pdrop
        self.softmax_scale = softmax_scale
        self.Wqkv = nn.Linear(d_model, 3 * d_model)
        self.out_proj = nn.Linear(d_model, d_model)

    def forward(self, x, attn_bias=None):
        query, key, value = self.Wqkv(x).chunk(3, dim=2)
        context = self.attn_fn(query, key, value, self.n_heads, softmax_scale=self.softmax_scale,
                               attn_bias=attn_bias, dropout_p=self.attn_dropout_p, training=self.training)
        return self.out_proj(context)
