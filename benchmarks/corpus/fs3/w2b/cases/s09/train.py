import torch

from losses import StageLoss
from model import UnfoldingNet

torch.manual_seed(0)

CONFIG = {"stages": 4, "lr": 2e-4, "epochs": 2, "batches": 3, "batch_size": 2, "patch": 24}


def make_batch(cfg):
    target = torch.rand(cfg["batch_size"], 3, cfg["patch"], cfg["patch"])
    blur = torch.nn.functional.avg_pool2d(target, 3, stride=1, padding=1)
    noisy = (blur + 0.02 * torch.randn_like(blur)).clamp(0, 1)
    return noisy, target


def psnr(x, y):
    mse = torch.mean((x.clamp(0, 1) - y) ** 2)
    return (10 * torch.log10(1.0 / mse)).item()


model = UnfoldingNet(CONFIG["stages"])
criterion = StageLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=CONFIG["lr"], betas=(0.9, 0.999), eps=1e-8)

data = [make_batch(CONFIG) for _ in range(CONFIG["batches"])]

for epoch in range(CONFIG["epochs"]):
    model.train()
    epoch_loss = 0.0
    for noisy, target in data:
        optimizer.zero_grad()
        restored = model(noisy)
        loss = criterion(restored, target)
        loss.backward()
        optimizer.step()
        epoch_loss += loss.item()
    model.eval()
    with torch.no_grad():
        score = sum(psnr(model(n)[0], t) for n, t in data) / len(data)
    print(f"epoch {epoch} loss {epoch_loss / len(data):.4f} psnr {score:.2f}")
