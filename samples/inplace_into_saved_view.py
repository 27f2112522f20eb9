"""A row of a tensor is taken as a view, multiplied (which saves it for backward), and then
changed in place through the same name. A copy where the view is taken would not help: the
write would change the copy, which is the tensor saved. The write itself is the line to change."""
import torch

torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
w = torch.randn(4, requires_grad=True)
row = (x * 2)[0]
scaled = row * w
row.add_(1)
scaled.sum().backward()
