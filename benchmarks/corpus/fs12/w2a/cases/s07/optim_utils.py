import torch


def build_param_groups(model, weight_decay):
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        if not p.requires_grad:
            continue
        if name.endswith(".bias") or p.ndim == 1:
            no_decay.append(p)
        elif name.endswith(".weight"):
            decay.append(p)
    return [
        {"params": decay, "weight_decay": weight_decay},
        {"params": no_decay, "weight_decay": 0.0},
    ]


def build_optimizer(model, hyp):
    groups = build_param_groups(model, hyp["weight_decay"])
    return torch.optim.SGD(groups, lr=hyp["lr0"], momentum=hyp["momentum"], nesterov=True)
