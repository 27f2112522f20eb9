"""Layers are frozen at an epoch of a schedule; the reset keeps zero-filled gradients, as a
config option asks, so AdamW's momentum and weight decay keep moving the frozen layers."""
import torch
from torch import nn

CONFIG = {"zero_grad_to_none": False, "freeze_at_step": 3, "lr": 1e-2}


def freeze(model, prefixes):
    for name, param in model.named_parameters():
        if name.startswith(prefixes):
            param.requires_grad = False


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
optimizer = torch.optim.AdamW(model.parameters(), lr=CONFIG["lr"], weight_decay=0.1)
for step in range(6):
    if step == CONFIG["freeze_at_step"]:
        freeze(model, ("0.",))
    loss = model(torch.randn(16, 8)).pow(2).mean()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad(set_to_none=CONFIG["zero_grad_to_none"])
