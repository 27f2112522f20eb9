import math

import torch
import torch.nn as nn


class LoraLinear(nn.Module):
    def __init__(self, base: nn.Linear, r: int, alpha: int, dropout: float):
        super().__init__()
        self.base = base
        self.r = r
        self.scaling = alpha / r
        self.lora_A = nn.Linear(base.in_features, r, bias=False)
        self.lora_B = nn.Linear(r, base.out_features, bias=False)
        self.lora_dropout = nn.Dropout(dropout)
        nn.init.kaiming_uniform_(self.lora_A.weight, a=math.sqrt(5))
        nn.init.zeros_(self.lora_B.weight)

    def forward(self, x):
        return self.base(x) + self.lora_B(self.lora_A(self.lora_dropout(x))) * self.scaling


def inject_adapters(model, target_modules, r, alpha, dropout):
    replaced = []
    for name, module in list(model.named_modules()):
        for child_name, child in list(module.named_children()):
            if child_name in target_modules and isinstance(child, nn.Linear):
                setattr(module, child_name, LoraLinear(child, r, alpha, dropout))
                replaced.append(f"{name}.{child_name}")
    return replaced


def mark_trainable(model, modules_to_save):
    for name, param in model.named_parameters():
        param.requires_grad = "lora_" in name or any(name.startswith(m) for m in modules_to_save)


def trainable_summary(model):
    total = sum(p.numel() for p in model.parameters())
    train = sum(p.numel() for p in model.parameters() if p.requires_grad)
    return f"trainable params: {train} || all params: {total} || trainable%: {100 * train / total:.3f}"
