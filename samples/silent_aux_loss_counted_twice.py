"""A model step returns its losses in a dict; the auxiliary loss is added into the main loss in
place there, and the training step adds it to the main loss again: its gradient counts twice."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 8)
        self.main_head = nn.Linear(8, 1)
        self.aux_head = nn.Linear(8, 1)

    def losses(self, x, y):
        h = torch.relu(self.body(x))
        main = (self.main_head(h).squeeze(-1) - y).pow(2).mean()
        aux = 0.1 * self.aux_head(h).pow(2).mean()
        main += aux
        return {"main": main, "aux": aux}


torch.manual_seed(0)
model = Model()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(3):
    parts = model.losses(torch.randn(16, 4), torch.randn(16))
    loss = parts["main"] + parts["aux"]
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"loss {loss.item():.4f}")
