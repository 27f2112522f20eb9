import torch
import torch.nn.functional as F

from densenet import DenseNet

CONFIG = {
    "depth_per_block": (4, 4),
    "growth_rate": 12,
    "efficient": True,
    "lr": 0.1,
    "momentum": 0.9,
    "weight_decay": 1e-4,
    "batch_size": 8,
    "n_batches": 3,
}


def train_epoch(model, optimizer, batches):
    model.train()
    total = 0.0
    for i, (x, y) in enumerate(batches):
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        print(f"batch {i}: loss {loss.item():.4f}")
    return total / len(batches)


def main(cfg):
    torch.manual_seed(0)
    model = DenseNet(growth_rate=cfg["growth_rate"], block_config=cfg["depth_per_block"],
                     efficient=cfg["efficient"])
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=cfg["momentum"],
                                nesterov=True, weight_decay=cfg["weight_decay"])
    batches = [(torch.randn(cfg["batch_size"], 3, 16, 16),
                torch.randint(0, 10, (cfg["batch_size"],))) for _ in range(cfg["n_batches"])]
    avg = train_epoch(model, optimizer, batches)
    print(f"epoch loss {avg:.4f}")


if __name__ == "__main__":
    main(CONFIG)
