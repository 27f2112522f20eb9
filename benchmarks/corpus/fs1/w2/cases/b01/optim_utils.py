import torch


def build_optimizer(model, lr, weight_decay=0.01):
    no_decay = ("bias", "ln_1.weight", "ln_2.weight", "ln_f.weight")
    groups = [
        {
            "params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)],
            "weight_decay": weight_decay,
        },
        {
            "params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)],
            "weight_decay": 0.0,
        },
    ]
    return torch.optim.AdamW(groups, lr=lr)
