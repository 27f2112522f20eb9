"""model.train() runs once, before the epoch loop; the validation inside the loop calls
model.eval(), so from the second epoch on every training step runs in eval mode (dropout off,
batch norm on its running statistics). Nothing raises."""
import torch
import torch.nn as nn


def validate(model, x, y):
    model.eval()
    with torch.no_grad():
        return nn.functional.mse_loss(model(x), y).item()


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Dropout(0.2), nn.Linear(16, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(3)]
val_x, val_y = torch.randn(16, 4), torch.randn(16, 1)
model.train()
for epoch in range(3):
    for x, y in data:
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
    print("epoch", epoch, "val", round(validate(model, val_x, val_y), 4))
