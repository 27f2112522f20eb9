"""Early stopping keeps the best weights with `state_dict()`, which shares memory with the
parameters: the later steps change it too, and "restoring the best model" restores the last."""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
x, y = torch.randn(32, 4), torch.randn(32, 1)
best_loss, best_state = float("inf"), None
for epoch in range(5):
    loss = nn.functional.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if loss.item() < best_loss:
        best_loss, best_state = loss.item(), model.state_dict()
model.load_state_dict(best_state)
print(f"best loss {best_loss:.4f}")
