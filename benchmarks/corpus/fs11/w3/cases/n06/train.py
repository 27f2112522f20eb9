import math

import torch
import torch.nn.functional as F

from layers import DANN

SETTINGS = {"epochs": 3, "iters_per_epoch": 5, "batch": 16, "lr": 0.01, "gamma": 10.0}


def grl_schedule(progress, gamma):
    return 2.0 / (1.0 + math.exp(-gamma * progress)) - 1.0


def source_batch(n):
    x = torch.randn(n, 20)
    return x, (x[:, :4].argmax(1))


def target_batch(n):
    return torch.randn(n, 20) * 1.5 + 0.5


def run(settings):
    model = DANN()
    opt = torch.optim.SGD(model.parameters(), lr=settings["lr"], momentum=0.9)
    total = settings["epochs"] * settings["iters_per_epoch"]
    it = 0
    for epoch in range(settings["epochs"]):
        for _ in range(settings["iters_per_epoch"]):
            model.grl.coeff = grl_schedule(it / total, settings["gamma"])
            xs, ys = source_batch(settings["batch"])
            xt = target_batch(settings["batch"])
            cls_s, dom_s = model(xs)
            _, dom_t = model(xt)
            task = F.cross_entropy(cls_s, ys)
            dom_logits = torch.cat([dom_s, dom_t])
            dom_labels = torch.cat([torch.ones_like(dom_s), torch.zeros_like(dom_t)])
            domain = F.binary_cross_entropy_with_logits(dom_logits, dom_labels)
            opt.zero_grad()
            (task + domain).backward()
            opt.step()
            it += 1
        print(f"epoch {epoch}  task {task.item():.4f}  domain {domain.item():.4f}  "
              f"coeff {model.grl.coeff:.3f}")
    return model


if __name__ == "__main__":
    torch.manual_seed(0)
    model = run(SETTINGS)
