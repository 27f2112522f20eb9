import torch

NO_DECAY = ("bias", "LayerNorm.weight")


def build_param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="classifier."):
    groups = {}
    for name, param in model.named_parameters():
        if not param.requires_grad:
            continue
        is_head = name.startswith(head_prefix)
        no_decay = any(nd in name for nd in NO_DECAY)
        key = ("head" if is_head else "body", "no_decay" if no_decay else "decay")
        if key not in groups:
            groups[key] = {"params": [], "lr": lr * head_lr_mult if is_head else lr,
                           "weight_decay": 0.0 if no_decay else weight_decay}
        groups[key]["params"].append(param)
    return list(groups.values())


def build_optimizer(model, lr, weight_decay):
    return torch.optim.AdamW(build_param_groups(model, lr, weight_decay), lr=lr, eps=1e-8)
