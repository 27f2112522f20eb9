import torch
import torch.nn.functional as F

from model import build_model

CONFIG = {
    "channels": [[32], [64, 64], [96]],
    "activation": "relu",
    "num_classes": 10,
    "lr": 0.05,
    "epochs": 1,
    "batch_size": 8,
}


def train_one_epoch(model, optimizer, batches):
    model.train()
    for step, (images, labels) in enumerate(batches):
        logits = model(images)
        loss = F.cross_entropy(logits, labels, label_smoothing=0.1)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss {loss.item():.4f}")


def main(cfg):
    torch.manual_seed(0)
    model = build_model(cfg)
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=0.9, nesterov=True)
    batches = [(torch.randn(cfg["batch_size"], 3, 32, 32),
                torch.randint(0, cfg["num_classes"], (cfg["batch_size"],))) for _ in range(3)]
    for _ in range(cfg["epochs"]):
        train_one_epoch(model, optimizer, batches)


if __name__ == "__main__":
    main(CONFIG)
