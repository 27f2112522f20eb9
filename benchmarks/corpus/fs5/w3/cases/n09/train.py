import math

import torch
import torch.nn.functional as F

from models import DANN

OPTS = {"epochs": 3, "iters": 8, "batch": 16, "lr": 1e-2, "gamma": 10.0, "in_dim": 20, "classes": 4}


def source_batch(o):
    x = torch.randn(o["batch"], o["in_dim"])
    y = (x[:, :o["classes"]]).argmax(1)
    return x, y


def target_batch(o):
    x = torch.randn(o["batch"], o["in_dim"]) * 1.5 + 0.5
    return x


def grl_lambda(progress, gamma):
    return 2.0 / (1.0 + math.exp(-gamma * progress)) - 1.0


def train(model, o):
    opt = torch.optim.SGD(model.parameters(), lr=o["lr"], momentum=0.9)
    total = o["epochs"] * o["iters"]
    step = 0
    for epoch in range(o["epochs"]):
        for _ in range(o["iters"]):
            alpha = grl_lambda(step / total, o["gamma"])
            xs, ys = source_batch(o)
            xt = target_batch(o)
            x = torch.cat([xs, xt])
            domain = torch.cat([torch.zeros(len(xs)), torch.ones(len(xt))])
            class_logits, domain_logits = model(x, alpha)
            cls_loss = F.cross_entropy(class_logits[: len(xs)], ys)
            dom_loss = F.binary_cross_entropy_with_logits(domain_logits, domain)
            loss = cls_loss + dom_loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
        print(f"epoch {epoch} alpha {alpha:.3f} cls {cls_loss.item():.4f} dom {dom_loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    model = DANN(OPTS["in_dim"], 48, OPTS["classes"])
    train(model, OPTS)
