import torch

import config as cfg
from detector import SingleStageDetector, make_targets


def parse_losses(losses):
    total = sum(v for v in losses.values())
    log = {k: round(v.item(), 4) for k, v in losses.items()}
    return total, log


def main():
    torch.manual_seed(cfg.train["seed"])
    model = SingleStageDetector(**cfg.model)
    model.train()
    optimizer = torch.optim.SGD(model.parameters(), **cfg.optimizer)

    bs, size = cfg.train["batch_size"], cfg.train["img_size"]
    for it in range(cfg.train["iters"]):
        img = torch.randn(bs, 3, size, size)
        cls_t, box_t = make_targets(model, img, cfg.model["head"]["num_classes"])
        losses = model.forward_train(img, cls_t, box_t)
        loss, log = parse_losses(losses)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it}: {log}")


if __name__ == "__main__":
    main()
