"""A slice taken under no_grad, then modified with gradient tracking on."""
import torch

weights = torch.randn(4, 4, requires_grad=True)
with torch.no_grad():
    first_row = weights[0]
first_row.mul_(0.5)
