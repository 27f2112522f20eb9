import torch
import torch.nn as nn

from config import CFG
from model import TwoViewNet


def build_optimizer(model, cfg):
    backbone = [p for n, p in model.named_parameters() if "backbone" in n]
    rest = [p for n, p in model.named_parameters() if "backbone" not in n]
    return torch.optim.SGD([{"params": backbone, "lr": 0.1 * cfg["lr"]},
                            {"params": rest, "lr": cfg["lr"]}],
                           momentum=cfg["momentum"], weight_decay=5e-4, nesterov=True)


def main(cfg):
    torch.manual_seed(cfg["seed"])
    model = TwoViewNet(cfg)
    model.train()
    optimizer = build_optimizer(model, cfg)
    criterion = nn.CrossEntropyLoss()
    for step in range(cfg["steps"]):
        n, s = cfg["batch_size"], cfg["img_size"]
        sat = torch.randn(n, 3, s, s)
        drone = torch.randn(n, 3, s, s)
        labels = torch.randint(0, cfg["num_classes"], (n,))
        (sat_logits, sat_f), (drone_logits, drone_f) = model(sat, drone)
        loss = criterion(sat_logits, labels) + criterion(drone_logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main(CFG)
