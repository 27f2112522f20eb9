import argparse

import torch
import torch.nn.functional as F

from config import get_config
from encoder import RetrievalEncoder


def triplet_batch(cfg, gen):
    anchor = torch.randn(cfg["batch_size"], cfg["in_chans"], cfg["img_size"], cfg["img_size"], generator=gen)
    positive = anchor + 0.1 * torch.randn(anchor.shape, generator=gen)
    negative = torch.randn(anchor.shape, generator=gen)
    return anchor, positive, negative


def run(cfg):
    gen = torch.Generator().manual_seed(0)
    model = RetrievalEncoder(cfg)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=cfg["lr"])
    model.train()
    for step in range(cfg["steps"]):
        anchor, positive, negative = triplet_batch(cfg, gen)
        emb = model(torch.cat([anchor, positive, negative]))
        a, p, n = emb.chunk(3)
        loss = F.triplet_margin_loss(a, p, n, margin=cfg["margin"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss {loss.item():.4f}")
    return model


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--experiment", default="finetune_lowmem")
    args = parser.parse_args()
    torch.manual_seed(0)
    model = run(get_config(args.experiment))
