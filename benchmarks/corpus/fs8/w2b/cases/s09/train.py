import math

import torch
import torch.nn.functional as F

from model import AdaptiveUNet

CONFIG = {
    "epochs": 2,
    "iters_per_epoch": 4,
    "batch_size": 4,
    "image_size": 32,
    "lr": 1e-3,
    "gamma": 10.0,
}


def grl_schedule(step, total, gamma):
    p = step / total
    return 2.0 / (1.0 + math.exp(-gamma * p)) - 1.0


def make_batch(cfg, domain):
    n, s = cfg["batch_size"], cfg["image_size"]
    images = torch.randn(n, 3, s, s) + 0.5 * domain
    masks = torch.randint(0, 2, (n, s, s))
    return images, masks


def train(cfg):
    model = AdaptiveUNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    total = cfg["epochs"] * cfg["iters_per_epoch"]
    step = 0
    for epoch in range(cfg["epochs"]):
        model.train()
        for _ in range(cfg["iters_per_epoch"]):
            lam = grl_schedule(step, total, cfg["gamma"])
            src_x, src_y = make_batch(cfg, domain=0)
            tgt_x, _ = make_batch(cfg, domain=1)

            seg_src, dom_src = model(src_x, grl_lambda=lam)
            _, dom_tgt = model(tgt_x, grl_lambda=lam)

            seg_loss = F.cross_entropy(seg_src, src_y)
            dom_logits = torch.cat([dom_src, dom_tgt]).squeeze(1)
            dom_labels = torch.cat([torch.zeros(len(dom_src)), torch.ones(len(dom_tgt))])
            dom_loss = F.binary_cross_entropy_with_logits(dom_logits, dom_labels)

            loss = seg_loss + dom_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            step += 1
        print(f"epoch {epoch} seg {seg_loss.item():.4f} dom {dom_loss.item():.4f} lambda {lam:.3f}")
    return model


torch.manual_seed(0)
model = train(CONFIG)
