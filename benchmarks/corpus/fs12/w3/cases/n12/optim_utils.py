import math

import torch
from torch.optim.lr_scheduler import LambdaLR

NO_DECAY_KEYWORDS = ("bias", "norm", "ln", "pos_embed", "cls_token")


def param_groups_weight_decay(model, weight_decay, skip_list=()):
    decay, no_decay = [], []
    for name, param in model.named_parameters():
        if not param.requires_grad:
            continue
        if param.ndim <= 1 or name in skip_list or any(k in name for k in NO_DECAY_KEYWORDS):
            no_decay.append(param)
        else:
            decay.append(param)
    return [
        {"params": no_decay, "weight_decay": 0.0},
        {"params": decay, "weight_decay": weight_decay},
    ]


def cosine_with_warmup(optimizer, num_warmup_steps, num_training_steps, min_ratio=0.0):
    def lr_lambda(step):
        if step < num_warmup_steps:
            return float(step) / float(max(1, num_warmup_steps))
        progress = float(step - num_warmup_steps) / float(max(1, num_training_steps - num_warmup_steps))
        return max(min_ratio, 0.5 * (1.0 + math.cos(math.pi * progress)))

    return LambdaLR(optimizer, lr_lambda)


def build_optimizer(model, cfg):
    groups = param_groups_weight_decay(model, cfg["weight_decay"], skip_list=model.no_weight_decay())
    return torch.optim.AdamW(groups, lr=cfg["lr"], betas=(0.9, 0.999))
