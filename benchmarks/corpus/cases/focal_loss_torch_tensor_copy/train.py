import torch
import torch.nn as nn

from head import GestureHead

torch.manual_seed(0)

backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.SiLU(),
                         nn.Conv2d(16, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.SiLU())
head = GestureHead(in_channels=32, num_classes=3)
params = list(backbone.parameters()) + list(head.parameters())
optimizer = torch.optim.AdamW(params, lr=1e-3, weight_decay=0.05)
loader = [(torch.randn(8, 3, 32, 32), torch.randint(0, 3, (8,))) for _ in range(4)]


def parse_losses(losses):
    loss = sum(v for k, v in losses.items() if k.startswith("loss"))
    log = {k: v.item() for k, v in losses.items()}
    return loss, log


for it, (imgs, gt_cls) in enumerate(loader):
    feats = backbone(imgs)
    loss, log = parse_losses(head.loss(feats, gt_cls))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"iter {it}: " + ", ".join(f"{k}={v:.4f}" for k, v in log.items()))
