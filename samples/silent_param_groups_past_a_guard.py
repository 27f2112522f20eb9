"""The optimizer's parameter groups depend on the task: for pretraining every parameter is in
one group; for any other task (set in the config) the groups are listed by hand and leave the
pooler out, so it gets gradients but the optimizer never changes it."""
import torch
from torch import nn

CONFIG = {"task": "classification", "lr": 1e-2}


class Pooler(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.dense = nn.Linear(width, width)

    def forward(self, x):
        return torch.tanh(self.dense(x))


class Model(nn.Module):
    def __init__(self, task):
        super().__init__()
        self.task = task
        self.encoder = nn.Linear(8, 16)
        self.pooler = Pooler(16)
        self.classifier = nn.Linear(16, 3)

    def forward(self, x):
        return self.classifier(self.pooler(self.encoder(x)))

    def param_groups(self, lr):
        if self.task == "pretraining":
            return [{"params": self.parameters(), "lr": lr}]
        return [{"params": self.encoder.parameters(), "lr": lr * 0.1},
                {"params": self.classifier.parameters(), "lr": lr}]


torch.manual_seed(0)
model = Model(CONFIG["task"])
optimizer = torch.optim.SGD(model.param_groups(CONFIG["lr"]), lr=CONFIG["lr"])
for step in range(3):
    loss = nn.functional.cross_entropy(model(torch.randn(8, 8)), torch.randint(0, 3, (8,)))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"loss {loss.item():.4f}")
