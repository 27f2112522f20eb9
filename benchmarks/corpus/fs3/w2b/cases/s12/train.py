import json

import torch
import torch.nn.functional as F

from model import TabularResNet

torch.manual_seed(0)

CONFIG = json.loads("""
{
  "model": {"dim": 32, "hidden": 64, "depth": 3, "fused_add": true},
  "optim": {"lr": 0.003, "weight_decay": 0.0001},
  "train": {"steps": 30, "batch_size": 64}
}
""")

IN_FEATURES, NUM_CLASSES = 12, 4
teacher = torch.nn.Linear(IN_FEATURES, NUM_CLASSES)


def sample_batch(n):
    x = torch.randn(n, IN_FEATURES)
    with torch.no_grad():
        y = teacher(x).argmax(dim=1)
    return x, y


model = TabularResNet(IN_FEATURES, NUM_CLASSES, **CONFIG["model"])
optimizer = torch.optim.AdamW(model.parameters(), **CONFIG["optim"])

for step in range(CONFIG["train"]["steps"]):
    x, y = sample_batch(CONFIG["train"]["batch_size"])
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    if step % 10 == 0:
        acc = (logits.argmax(1) == y).float().mean().item()
        print(f"step {step} loss {loss.item():.4f} acc {acc:.3f}")
