import torch
import torch.nn as nn

from model import TransMIL

config = dict(in_dim=128, dim=64, n_classes=2, lr=2e-4, weight_decay=1e-5, epochs=2, bags=4)


def make_bags(n_bags, in_dim, seed=0):
    g = torch.Generator().manual_seed(seed)
    bags = []
    for _ in range(n_bags):
        n_patches = int(torch.randint(40, 60, (1,), generator=g))
        feats = torch.randn(1, n_patches, in_dim, generator=g)
        label = torch.randint(0, 2, (1,), generator=g)
        bags.append((feats, label))
    return bags


def main():
    torch.manual_seed(0)
    model = TransMIL(config["in_dim"], config["dim"], config["n_classes"])
    optimizer = torch.optim.Adam(model.parameters(), lr=config["lr"], weight_decay=config["weight_decay"])
    criterion = nn.CrossEntropyLoss()
    bags = make_bags(config["bags"], config["in_dim"])
    for epoch in range(config["epochs"]):
        model.train()
        total = 0.0
        for feats, label in bags:
            logits = model(feats)
            loss = criterion(logits, label)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch}: loss {total / len(bags):.4f}")


if __name__ == "__main__":
    main()
