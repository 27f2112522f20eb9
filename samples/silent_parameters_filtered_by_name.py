"""The optimizer is given the model's parameters filtered by name (a filter kept from a script
whose head did not use the pooler); this head classifies from the pooled output, so the pooler
gets gradients and is never stepped."""
import torch
from torch import nn


class Pooler(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.dense = nn.Linear(width, width)

    def forward(self, hidden):
        return torch.tanh(self.dense(hidden[:, 0]))


class Classifier(nn.Module):
    def __init__(self, width=16, classes=3):
        super().__init__()
        self.encoder = nn.Linear(8, width)
        self.pooler = Pooler(width)
        self.head = nn.Linear(width, classes)

    def forward(self, x):
        return self.head(self.pooler(torch.relu(self.encoder(x))))


torch.manual_seed(0)
model = Classifier()
trainable = [p for n, p in model.named_parameters() if "pooler" not in n]
optimizer = torch.optim.AdamW(trainable, lr=1e-2)
for step in range(3):
    x, y = torch.randn(4, 5, 8), torch.randint(0, 3, (4,))
    loss = nn.functional.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"loss {loss.item():.4f}")
