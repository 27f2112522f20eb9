import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from models.backbone import SmallVGG
from models.gain import GAIN

CFG = {
    "num_classes": 2,
    "grad_layer": "features.3",
    "alpha": 1.0,
    "lr": 1e-3,
    "epochs": 1,
    "batch_size": 10,
}


def build_loader(n=20):
    g = torch.Generator().manual_seed(0)
    images = torch.randn(n, 3, 32, 32, generator=g)
    labels = torch.randint(0, CFG["num_classes"], (n,), generator=g)
    return DataLoader(TensorDataset(images, labels), batch_size=CFG["batch_size"], shuffle=True)


def gain_criterion(logits, logits_am, labels, num_classes, alpha):
    loss_cl = F.cross_entropy(logits, labels)
    probs_am = torch.sigmoid(logits_am)
    labels_ohe = F.one_hot(labels, num_classes).float()
    loss_am = (probs_am * labels_ohe).sum() / logits_am.size(0)
    return loss_cl + alpha * loss_am, loss_cl, loss_am


def train_epoch(model, loader, optimizer, epoch):
    model.train()
    for step, (images, labels) in enumerate(loader):
        logits, logits_am, _ = model(images, labels)
        loss, loss_cl, loss_am = gain_criterion(
            logits, logits_am, labels, CFG["num_classes"], CFG["alpha"]
        )
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} step {step} loss {loss.item():.4f} "
              f"cl {loss_cl.item():.4f} am {loss_am.item():.4f}")


def main():
    torch.manual_seed(0)
    backbone = SmallVGG(num_classes=CFG["num_classes"])
    model = GAIN(backbone, CFG["grad_layer"], CFG["num_classes"])
    optimizer = torch.optim.Adam(model.parameters(), lr=CFG["lr"])
    loader = build_loader()
    for epoch in range(CFG["epochs"]):
        train_epoch(model, loader, optimizer, epoch)


if __name__ == "__main__":
    main()
