"""A fine-tuning script freezes the pretrained encoder with a helper, but hands the helper the
whole classifier: the new head is frozen too, and the loss has no graph."""
import torch
from torch import nn


def freeze(module, keep=()):
    for name, param in module.named_parameters():
        if name.split(".")[0] in keep:
            continue
        param.requires_grad = False


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 32))
        self.head = nn.Linear(32, 4)

    def forward(self, x):
        return self.head(self.encoder(x))


torch.manual_seed(0)
model = Classifier()
freeze(model)
optimizer = torch.optim.SGD(model.head.parameters(), lr=0.1)
x, y = torch.randn(8, 10), torch.randint(0, 4, (8,))
loss = nn.functional.cross_entropy(model(x), y)
loss.backward()
optimizer.step()
