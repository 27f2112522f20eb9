import torch


def get_params_options(args, model):
    decay_interactions = {}
    no_decay_interactions = {}
    for name, param in model.interactions.named_parameters():
        if "linear.weight" in name or "linear_up.weight" in name:
            decay_interactions[name] = param
        else:
            no_decay_interactions[name] = param

    param_options = dict(
        params=[
            {"name": "embedding", "params": model.node_embedding.parameters(), "weight_decay": 0.0},
            {"name": "interactions_decay", "params": list(decay_interactions.values()),
             "weight_decay": args["weight_decay"]},
            {"name": "interactions_no_decay", "params": list(no_decay_interactions.values()),
             "weight_decay": 0.0},
            {"name": "products", "params": model.products.parameters(), "weight_decay": args["weight_decay"]},
            {"name": "readouts", "params": model.readouts.parameters(), "weight_decay": 0.0},
        ],
        lr=args["lr"],
        amsgrad=args["amsgrad"],
    )
    return param_options


def get_optimizer(args, param_options):
    if args["optimizer"] == "adamw":
        return torch.optim.AdamW(**param_options)
    return torch.optim.Adam(**param_options)
