"""Seed note 1: `b[0] = 1000.` after `b * b` saved b -> "modified by an inplace operation".

torch's message names CopySlices (the node `b[0] = ...` gave b) and no line at all.
Run: python samples/inplace_index_assign.py   (fails)   |   gradscope run samples/inplace_index_assign.py
"""
import torch

a = torch.tensor([1.0, 3.0], requires_grad=True)
b = a + 2
print(b._version)

loss = (b * b).mean()
b[0] = 1000.0
print(b._version)

loss.backward()
print(a.grad)
