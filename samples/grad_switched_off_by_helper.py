"""A batching helper switches grad mode for evaluation with a bare set_grad_enabled call; after
the first validation, tracking stays off and the next training loss has no graph."""
import torch
import torch.nn as nn


def prepare(batch, evaluating=False):
    torch.set_grad_enabled(not evaluating)
    return batch.float()


def validate(model, data):
    model.eval()
    score = sum(model(prepare(x, evaluating=True)).mean().item() for x in data)
    model.train()
    return score


torch.manual_seed(0)
model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
data = [torch.randn(8, 4) for _ in range(2)]
for epoch in range(2):
    for x in data:
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    validate(model, data)
