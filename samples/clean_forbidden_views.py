"""Views whose grad_fn torch refuses to give (its own check raises when asked), in correct
programs: Embedding's padding row zeroed under no_grad, unbind outputs, a view of a base changed
in place under no_grad. Reading them must not fail gradscope (no internal error)."""
import torch
import torch.nn as nn

torch.manual_seed(0)
embedding = nn.Embedding(10, 4, padding_idx=0)  # zeroes weight[0] in place under no_grad
tokens = torch.tensor([[0, 1, 2], [3, 0, 4]])
embedding(tokens).sum().backward()
print("padding row grad", embedding.weight.grad[0].tolist())

w = torch.randn(3, 2, requires_grad=True)
first, second, third = w.clone().unbind(0)
(first * 2 + second - third).sum().backward()
print("unbind grad", w.grad.sum().item())

base = torch.randn(4, requires_grad=True).clone()
with torch.no_grad():
    head = base[:2]
    head.mul_(0.5)  # view and change both under no_grad: allowed
(base * 3).sum().backward()
print("no_grad view ok", head.shape)
