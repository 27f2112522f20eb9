import torch
import torch.nn.functional as F
from torch import nn

CFG = {"device": "cpu", "amp_dtype": torch.bfloat16, "epochs": 2, "steps": 6, "clip": 2.0}


class UNetLite(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(1, ch, 3, padding=1), nn.GroupNorm(4, ch), nn.SiLU(),
                                  nn.Conv2d(ch, ch * 2, 3, stride=2, padding=1), nn.SiLU())
        self.up = nn.Sequential(nn.ConvTranspose2d(ch * 2, ch, 2, stride=2), nn.SiLU())
        self.out = nn.Conv2d(ch * 2, 1, 1)
        self.skip = nn.Conv2d(1, ch, 1)

    def forward(self, x):
        h = self.up(self.down(x))
        return self.out(torch.cat([h, self.skip(x)], dim=1))


def dice_loss(logits, target, eps=1.0):
    prob = logits.float().sigmoid()
    inter = (prob * target).sum((1, 2, 3))
    union = prob.sum((1, 2, 3)) + target.sum((1, 2, 3))
    return 1 - ((2 * inter + eps) / (union + eps)).mean()


def train(cfg):
    torch.manual_seed(0)
    model = UNetLite().to(cfg["device"])
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    scaler = torch.amp.GradScaler(cfg["device"], init_scale=2.0 ** 8)
    for epoch in range(cfg["epochs"]):
        for step in range(cfg["steps"]):
            x = torch.randn(4, 1, 16, 16, device=cfg["device"])
            target = (x > 0.3).float()
            optimizer.zero_grad(set_to_none=True)
            with torch.autocast(device_type=cfg["device"], dtype=cfg["amp_dtype"]):
                logits = model(x)
                bce = F.binary_cross_entropy_with_logits(logits, target)
            loss = bce + dice_loss(logits, target)
            scaler.scale(loss).backward()
            scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(model.parameters(), cfg["clip"])
            scaler.step(optimizer)
            scaler.update()
        print(f"epoch {epoch}  loss {loss.item():.4f}  scale {scaler.get_scale():.0f}")
    return model


if __name__ == "__main__":
    model = train(CFG)
