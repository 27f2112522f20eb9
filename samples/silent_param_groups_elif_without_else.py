"""Weight decay groups sorted by name: biases and 1-d tensors, then `.weight` names; a learned
position embedding matches neither, so it is in no group and never trained."""
import torch
import torch.nn as nn


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.pos_emb = nn.Parameter(torch.zeros(1, 6, 8))
        self.proj = nn.Linear(8, 8)
        self.head = nn.Linear(8, 3)

    def forward(self, x):
        return self.head(torch.relu(self.proj(x + self.pos_emb)))


def param_groups(model, weight_decay=0.01):
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        if name.endswith(".bias") or p.ndim == 1:
            no_decay.append(p)
        elif name.endswith(".weight"):
            decay.append(p)
    return [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}]


torch.manual_seed(0)
model = Tagger()
optimizer = torch.optim.AdamW(param_groups(model), lr=1e-3)
for step in range(3):
    loss = model(torch.randn(4, 6, 8)).logsumexp(-1).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"loss {loss.item():.4f}")
