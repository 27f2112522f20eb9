import math

import torch
import torch.nn as nn


class LoRAConv1D(nn.Module):
    """Low-rank adapter around a frozen GPT-2 Conv1D projection (weight is [in, out])."""

    def __init__(self, base, r=4, alpha=8, dropout=0.0):
        super().__init__()
        self.base = base
        in_features, out_features = base.weight.shape
        self.lora_A = nn.Parameter(torch.empty(r, in_features))
        self.lora_B = nn.Parameter(torch.zeros(out_features, r))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        self.scaling = alpha / r
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        update = self.dropout(x) @ self.lora_A.t() @ self.lora_B.t()
        return self.base(x) + update * self.scaling


def inject_lora(model, target_modules, **kwargs):
    for name, module in list(model.named_modules()):
        for child_name, child in list(module.named_children()):
            if child_name in target_modules:
                setattr(module, child_name, LoRAConv1D(child, **kwargs))
    return model


def mark_only_lora_as_trainable(model):
    for name, p in model.named_parameters():
        p.requires_grad = "lora_" in name


def trainable_parameters(model):
    return [p for p in model.parameters() if p.requires_grad]
