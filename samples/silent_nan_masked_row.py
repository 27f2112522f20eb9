"""A padded query whose attention row is masked entirely with -inf: softmax gives NaN in the
forward; the loss ignores that row, but the NaN reaches the weights' gradients."""
import torch
import torch.nn as nn

torch.manual_seed(0)
proj, head = nn.Linear(8, 8), nn.Linear(8, 1)
optimizer = torch.optim.SGD([*proj.parameters(), *head.parameters()], lr=0.1)
x = torch.randn(2, 5, 8)
valid = torch.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], dtype=torch.bool)
for step in range(2):
    scores = proj(x) @ x.transpose(1, 2)
    scores = scores.masked_fill(~(valid[:, :, None] & valid[:, None, :]), float("-inf"))
    attn = scores.softmax(dim=-1)
    out = head(attn @ x).squeeze(-1)
    loss = out[valid].pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print("loss", loss.item())
