"""A draft head is trained for two steps on the frozen base model's hidden states; before the
second step the loop writes the first step's draft outputs into those hidden states in place,
which the head's LayerNorm saved in the first step."""
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
base = nn.Linear(6, 6)
head = nn.Sequential(nn.LayerNorm(6), nn.Linear(6, 6))
optimizer = torch.optim.SGD(head.parameters(), lr=0.1)

tokens = torch.randn(2, 5, 6)
with torch.no_grad():
    base_hidden = base(tokens)
inputs = base_hidden[:, :-1].contiguous()
loss = 0.0
for step in range(2):
    if step > 0:
        mask = torch.rand(inputs.shape[:2]) < 0.5
        inputs[mask] = out[mask]
    out = head(inputs)
    loss = loss + F.mse_loss(out, base_hidden[:, 1:])
loss.backward()
optimizer.step()
