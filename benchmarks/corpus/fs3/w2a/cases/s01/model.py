from typing import List, Optional

import torch
from torch import nn


class GTLayer(nn.Module):
    def __init__(self, dim: int, heads: int, norm: str = "bn", dropout: float = 0.1):
        super().__init__()
        self.attn = nn.MultiheadAttention(dim, heads, dropout=dropout, batch_first=True)
        self.ffn = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Dropout(dropout), nn.Linear(2 * dim, dim))
        self.norm1 = nn.BatchNorm1d(dim) if norm == "bn" else nn.LayerNorm(dim)
        self.norm2 = nn.BatchNorm1d(dim) if norm == "bn" else nn.LayerNorm(dim)

    @staticmethod
    def _apply_norm(norm: nn.Module, x: torch.Tensor) -> torch.Tensor:
        if isinstance(norm, nn.BatchNorm1d):
            return norm(x.transpose(1, 2)).transpose(1, 2)
        return norm(x)

    def forward(self, x: torch.Tensor, pad_mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        h, _ = self.attn(x, x, x, key_padding_mask=pad_mask, need_weights=False)
        x = self._apply_norm(self.norm1, x + h)
        x = self._apply_norm(self.norm2, x + self.ffn(x))
        return x


class GraphTransformer(nn.Module):
    def __init__(self, node_dim: int, hidden_dim: int, heads: int, num_layers: int,
                 num_tasks: int, norm: str = "bn", dropout: float = 0.1):
        super().__init__()
        self.node_encoder = nn.Linear(node_dim, hidden_dim)
        self.layers = nn.ModuleList(GTLayer(hidden_dim, heads, norm, dropout) for _ in range(num_layers))
        self.head = nn.Sequential(nn.Linear(hidden_dim, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, num_tasks))
        self.frozen = False

    def encode(self, x: torch.Tensor, pad_mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        h = self.node_encoder(x)
        for layer in self.layers:
            h = layer(h, pad_mask)
        if pad_mask is None:
            return h.mean(dim=1)
        keep = (~pad_mask).unsqueeze(-1).to(h.dtype)
        return (h * keep).sum(1) / keep.sum(1).clamp(min=1.0)

    def forward(self, x: torch.Tensor, pad_mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        return self.head(self.encode(x, pad_mask))

    def encoder_modules(self) -> List[nn.Module]:
        return [self.node_encoder, self.layers]

    def _set_requires_grad(self, modules: List[nn.Module], requires_grad: bool) -> None:
        for module in modules:
            for param in module.parameters():
                param.requires_grad = requires_grad
            for m in module.modules():
                if isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d)):
                    if requires_grad:
                        m.train()
                    else:
                        m.eval()

    def freeze(self) -> None:
        self._set_requires_grad(self.encoder_modules(), False)
        self.frozen = True

    def unfreeze(self) -> None:
        self._set_requires_grad(self.encoder_modules(), True)
        self.frozen = False

    def get_frozen_status(self) -> bool:
        return self.frozen
