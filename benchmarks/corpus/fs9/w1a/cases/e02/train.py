import copy

import torch

from model import OneStageDetector

torch.manual_seed(0)

BASE_CFG = {
    "backbone": {"out_stages": (2, 3, 4)},
    "fpn": {"name": "FPN", "out_channels": 96, "num_outs": 3, "start_level": 0,
            "activation": None},
    "head": {"num_classes": 4},
    "schedule": {"lr": 0.01, "iters": 3, "batch_size": 2, "input_size": 128},
}

EXPERIMENT = {
    "fpn": {"activation": "LeakyReLU"},
}


def merge(base, override):
    out = copy.deepcopy(base)
    for k, v in override.items():
        if isinstance(v, dict):
            out[k].update(v)
        else:
            out[k] = v
    return out


def make_batch(cfg, strides=(8, 16, 32)):
    sched = cfg["schedule"]
    n, s = sched["batch_size"], sched["input_size"]
    images = torch.randn(n, 3, s, s)
    heatmaps = [torch.rand(n, cfg["head"]["num_classes"], s // st, s // st).round()
                for st in strides]
    boxes = [torch.rand(n, 4, s // st, s // st) for st in strides]
    return images, heatmaps, boxes


def main():
    cfg = merge(BASE_CFG, EXPERIMENT)
    model = OneStageDetector(cfg)
    model.train()
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg["schedule"]["lr"], momentum=0.9)
    for it in range(cfg["schedule"]["iters"]):
        images, heatmaps, boxes = make_batch(cfg)
        preds = model(images)
        loss = model.loss(preds, heatmaps, boxes)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
