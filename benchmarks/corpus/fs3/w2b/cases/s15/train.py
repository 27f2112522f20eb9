import torch
from torch.utils.data import DataLoader

from dataset import AssayImages, PROPERTIES
from losses import masked_mse
from model import PropertyRegressor

torch.manual_seed(0)

CFG = {"backbone": "resnet10t", "epochs": 1, "batch_size": 8, "lr": 1e-3}


def train_one_epoch(model, loader, optimizer, epoch):
    model.train()
    for step, (images, targets) in enumerate(loader):
        preds = model(images)
        loss = masked_mse(preds, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} step {step} loss {loss.item():.4f}")


def evaluate(model, loader):
    model.eval()
    errs = []
    with torch.no_grad():
        for images, targets in loader:
            preds = model(images)
            mask = ~torch.isnan(targets)
            errs.append((preds - targets).abs()[mask])
    return torch.cat(errs).mean().item()


if __name__ == "__main__":
    loader = DataLoader(AssayImages(), batch_size=CFG["batch_size"], shuffle=True)
    model = PropertyRegressor(CFG["backbone"], num_targets=len(PROPERTIES))
    optimizer = torch.optim.AdamW(model.parameters(), lr=CFG["lr"])
    for epoch in range(CFG["epochs"]):
        train_one_epoch(model, loader, optimizer, epoch)
        print(f"epoch {epoch} val MAE {evaluate(model, loader):.4f}")
