import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from data import ScanDataset, make_collate
from vit import ViT

torch.manual_seed(0)

cfg = dict(image_size=32, patch_size=8, num_classes=4, dim=32, depth=2, heads=4, mlp_dim=64)
model = ViT(**cfg)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
loader = DataLoader(ScanDataset(canvas=cfg["image_size"]), batch_size=8, shuffle=False,
                    collate_fn=make_collate(cfg["image_size"], cfg["patch_size"]))

for epoch in range(2):
    running = 0.0
    for imgs, mask, labels in loader:
        logits = model(imgs, mask=mask)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item()
    print(f"epoch {epoch}: mean loss {running / len(loader):.4f}")
