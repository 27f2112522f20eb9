"""A "fix" for the in-place error: writing through .data. No error, wrong gradients."""
import torch

torch.manual_seed(0)

logits = torch.randn(4, requires_grad=True)
probs = torch.sigmoid(logits)
loss = probs.sum()
probs.data.clamp_(0.1, 0.9)  # the sigmoid's backward uses these values
loss.backward()
print(logits.grad)
