import math

import compat  # noqa: F401
import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import ViTConfig, ViTModel


class LoRALinear(nn.Module):
    """Wraps a frozen nn.Linear and adds a trainable low-rank update."""

    def __init__(self, base: nn.Linear, rank: int, alpha: int):
        super().__init__()
        self.base = base
        self.scaling = alpha / rank
        self.lora_a = nn.Parameter(torch.empty(rank, base.in_features))
        self.lora_b = nn.Parameter(torch.zeros(base.out_features, rank))
        nn.init.kaiming_uniform_(self.lora_a, a=math.sqrt(5))

    def forward(self, x):
        update = F.linear(F.linear(x, self.lora_a), self.lora_b)
        return self.base(x) + update * self.scaling


def inject_lora(model: nn.Module, targets, rank: int, alpha: int) -> int:
    replaced = 0
    for name, module in list(model.named_modules()):
        for child_name, child in list(module.named_children()):
            if child_name in targets and isinstance(child, nn.Linear):
                setattr(module, child_name, LoRALinear(child, rank, alpha))
                replaced += 1
    return replaced


class RetrievalEncoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        vit_cfg = ViTConfig(**cfg["model"])
        self.backbone = ViTModel(vit_cfg, add_pooling_layer=False)
        for p in self.backbone.parameters():
            p.requires_grad_(False)
        lcfg = cfg["lora"]
        self.n_adapters = inject_lora(self.backbone, lcfg["targets"], lcfg["rank"], lcfg["alpha"])

    def forward(self, pixel_values):
        hidden = self.backbone(pixel_values=pixel_values).last_hidden_state
        return F.normalize(hidden[:, 0], dim=-1)

    def trainable_parameters(self):
        return [p for p in self.parameters() if p.requires_grad]
