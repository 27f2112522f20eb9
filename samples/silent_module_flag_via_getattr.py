"""A classifier freezes its encoder's sub-modules by name, fetched with getattr, by setting
`requires_grad = False` on each module: a plain attribute, so their parameters still train."""
import torch
from torch import nn


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.ModuleDict({"embed": nn.Linear(8, 16), "body": nn.Linear(16, 16)})
        self.head = nn.Linear(16, 2)

    def freeze(self, names):
        for name in names:
            module = getattr(self.encoder, name) if hasattr(self.encoder, name) else self.encoder[name]
            module.requires_grad = False

    def forward(self, x):
        return self.head(torch.relu(self.encoder["body"](torch.relu(self.encoder["embed"](x)))))


torch.manual_seed(0)
model = Classifier()
model.freeze(["embed"])
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(3):
    loss = nn.functional.cross_entropy(model(torch.randn(16, 8)), torch.randint(0, 2, (16,)))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
