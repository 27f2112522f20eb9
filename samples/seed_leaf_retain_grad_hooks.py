"""Seed note 1: leaf tensors, retain_grad() and register_hook on intermediates (no error)."""
import torch

a = torch.tensor(2.0, requires_grad=True)
b = a.exp()
print(b)

input = torch.ones([2, 2], requires_grad=False)
w1 = torch.tensor(2.0, requires_grad=True)
w2 = torch.tensor(3.0, requires_grad=True)
w3 = torch.tensor(3.0, requires_grad=True)
l1 = input * w1
l2 = l1 + w2
l3 = l1 * w3
l4 = l2 * l3
loss = l4.mean()

l1.retain_grad()
l4.retain_grad()
loss.retain_grad()
loss.backward(retain_graph=True)
print(w1.grad, loss.grad, l4.grad, l1.grad)
print(w1.is_leaf, l1.is_leaf, l1.grad_fn.name())

loss2 = l4.mean()
l1.register_hook(lambda grad: print("l1 grad:", grad))
l4.register_hook(lambda grad: print("l4 grad", grad))
loss2.register_hook(lambda grad: print("loss grad:", grad))
loss2.backward()

x = torch.tensor([3.0, 1.0])
print(id(x) == id(x.exp()), x._version)
