BASE = {
    "arch": "resnet10t",
    "source_classes": 10,
    "img_size": 32,
    "batch_size": 4,
    "lr": 0.05,
    "momentum": 0.9,
    "weight_decay": 1e-4,
    "epochs": 2,
    "steps_per_epoch": 2,
}

TASKS = {
    "source": {"num_classes": 10},
    "flowers5": {"num_classes": 5},
}


def get_config(task):
    cfg = dict(BASE)
    cfg.update(TASKS[task])
    cfg["task"] = task
    return cfg
