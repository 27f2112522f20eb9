"""After two epochs the hidden layer is replaced by a wider one (a model that grows), but the
optimizer was built once, before: it keeps stepping the old layer's parameters, and the new
layer is never trained. Nothing raises."""
import torch
import torch.nn as nn


def widen(model, width):
    old = model[0]
    model[0] = nn.Linear(old.in_features, width)
    model[2] = nn.Linear(width, model[2].out_features)


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(3)]
for epoch in range(4):
    if epoch == 2:
        widen(model, 16)
    for x, y in data:
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
    print("epoch", epoch, "loss", round(loss.item(), 4))
