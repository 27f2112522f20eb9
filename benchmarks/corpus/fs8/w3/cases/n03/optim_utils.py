import torch

NO_DECAY = ("bias", "LayerNorm.weight")


def layer_id_for(name, num_layers):
    if name.startswith("bert.embeddings"):
        return 0
    if name.startswith("bert.encoder.layer."):
        return int(name.split(".")[3]) + 1
    return num_layers + 1


def build_param_groups(model, cfg):
    num_layers = model.config.num_hidden_layers
    groups = {}
    for name, p in model.named_parameters():
        if not p.requires_grad:
            continue
        lid = layer_id_for(name, num_layers)
        decay = 0.0 if name.endswith(NO_DECAY) else cfg["weight_decay"]
        if lid == num_layers + 1:
            lr = cfg["head_lr"]
        else:
            lr = cfg["base_lr"] * cfg["layer_decay"] ** (num_layers + 1 - lid)
        key = (lid, decay)
        g = groups.setdefault(key, {"params": [], "lr": lr, "weight_decay": decay, "layer": lid})
        g["params"].append(p)
    return list(groups.values())


def make_optimizer(model, cfg):
    return torch.optim.AdamW(build_param_groups(model, cfg), betas=(0.9, 0.98), eps=1e-6)
