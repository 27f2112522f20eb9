"""Warnings as Python shows them: a library's FutureWarning once per location (the default
filter), torch's own warnings from the line that called the op, and nothing of gradscope's
(importing torch.distributed makes an object that warns when looked at)."""
import warnings

import torch
import torch.distributed  # noqa: F401  (defines the deprecated reduce_op)
import torch.nn.functional as F


def deprecated_helper():
    warnings.warn("deprecated_helper() is deprecated", FutureWarning, stacklevel=2)


x = torch.randn(3, 4, requires_grad=True)
optimizer = torch.optim.SGD([x], lr=0.1)
for step in range(3):
    deprecated_helper()
    probabilities = F.softmax(x)  # implicit dim: a UserWarning from this line
    loss = F.mse_loss(probabilities, torch.rand(4))  # broadcast target: a UserWarning
    copy = torch.tensor(x)  # copy-construct warning (C++)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
print("done", copy.shape)
