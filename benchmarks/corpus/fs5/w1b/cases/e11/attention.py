import torch.nn as nn
import torch.nn.functional as F

from comm import get_sp_world_size, seq_all_to_all


class Attention(nn.Module):
    def __init__(self, dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def _heads(self, x):
        b, n, _ = x.shape
        q, k, v = self.qkv(x).view(b, n, 3, self.num_heads, -1).unbind(dim=2)
        return q, k, v  # (b, n, h, d)

    def _attend(self, q, k, v):
        out = F.scaled_dot_product_attention(
            q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2))
        return out.transpose(1, 2)

    def forward(self, x):
        q, k, v = self._heads(x)
        out = self._attend(q, k, v)
        return self.proj(out.flatten(2))


class SequenceParallelAttention(Attention):
    """Ulysses-style attention: scatter heads, gather the sequence, attend."""

    def __init__(self, dim, num_heads, sp_group=None):
        super().__init__(dim, num_heads)
        self.sp_group = sp_group
        self.sp_size = get_sp_world_size(sp_group)

    def forward(self, x):
        q, k, v = self._heads(x)
        q, k, v = (seq_all_to_all(t, self.sp_group, self.sp_size, 2, 1) for t in (q, k, v))
        out = self._attend(q, k, v)
        out = seq_all_to_all(out, self.sp_group, self.sp_size, 1, 2)
        return self.proj(out.flatten(2))


ATTENTION_CLASSES = {
    "full": Attention,
    "ulysses": SequenceParallelAttention,
}
