import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from model import RGLRUClassifier

CONFIG = {
    "seed": 0,
    "epochs": 2,
    "batch_size": 16,
    "lr": 1e-3,
    "num_samples": 64,
    "carry_state": True,
}


def make_loader(cfg):
    g = torch.Generator().manual_seed(cfg["seed"])
    images = torch.rand(cfg["num_samples"], 1, 28, 28, generator=g)
    labels = torch.randint(0, 10, (cfg["num_samples"],), generator=g)
    return DataLoader(TensorDataset(images, labels), batch_size=cfg["batch_size"], shuffle=True,
                      drop_last=True, generator=g)


def train(cfg):
    torch.manual_seed(cfg["seed"])
    model = RGLRUClassifier()
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    loader = make_loader(cfg)
    for epoch in range(cfg["epochs"]):
        model.train()
        model.reset_state()
        total, correct = 0.0, 0
        for images, labels in loader:
            if not cfg["carry_state"]:
                model.reset_state()
            logits = model(images)
            loss = F.cross_entropy(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * images.size(0)
            correct += (logits.argmax(1) == labels).sum().item()
        n = len(loader) * cfg["batch_size"]
        print(f"epoch {epoch}: loss={total / n:.4f} acc={correct / n:.3f}")


if __name__ == "__main__":
    train(CONFIG)
