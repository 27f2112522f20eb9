import math

import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, rank: int, alpha: float):
        super().__init__()
        self.base = base
        self.scaling = alpha / rank
        self.lora_A = nn.Parameter(torch.empty(rank, base.in_features))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, rank))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))

    def forward(self, x):
        return self.base(x) + (x @ self.lora_A.t() @ self.lora_B.t()) * self.scaling


def apply_lora(model, target_modules, rank, alpha):
    for p in model.parameters():
        p.requires_grad_(False)
    for name, module in list(model.named_modules()):
        for attr in target_modules:
            child = getattr(module, attr, None)
            if isinstance(child, nn.Linear):
                setattr(module, attr, LoRALinear(child, rank, alpha))
    return model


def lora_parameters(model):
    return [p for n, p in model.named_parameters() if "lora_" in n]
