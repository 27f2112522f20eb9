"""A trainer switches gradient checkpointing on with the config's kwargs, left None: the model's
default for None is use_reentrant=True, and with the base frozen the loss has no graph."""
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

config = {"lr": 1e-3, "gradient_checkpointing": True, "gradient_checkpointing_kwargs": None}


class Adapted(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.embed = nn.Linear(8, width)
        self.blocks = nn.ModuleList(nn.Linear(width, width) for _ in range(2))
        self.adapters = nn.ModuleList(nn.Linear(width, width, bias=False) for _ in range(2))
        self.head = nn.Linear(width, 1)
        self.checkpoint_kwargs = None

    def gradient_checkpointing_enable(self, kwargs=None):
        if kwargs is None:
            kwargs = {"use_reentrant": True}
        self.checkpoint_kwargs = kwargs

    def block(self, i, x):
        return torch.relu(self.blocks[i](x) + self.adapters[i](x))

    def forward(self, x):
        x = self.embed(x)
        for i in range(len(self.blocks)):
            if self.checkpoint_kwargs is not None:
                x = checkpoint(self.block, i, x, **self.checkpoint_kwargs)
            else:
                x = self.block(i, x)
        return self.head(x)


torch.manual_seed(0)
model = Adapted()
for name, p in model.named_parameters():
    p.requires_grad_("adapters" in name)
if config["gradient_checkpointing"]:
    model.gradient_checkpointing_enable(config["gradient_checkpointing_kwargs"])
optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=config["lr"])
loss = model(torch.randn(4, 8)).pow(2).mean()
loss.backward()
optimizer.step()
