"""Seed note 4, the cases that do not fail: advanced indexing copies, rebinding a name is not
in-place, and writing into a clone inside a loop keeps a valid graph."""
import torch
import torch.nn as nn

torch.manual_seed(0)
embedding = nn.Parameter(torch.rand(2, 3))
d = nn.Parameter(torch.rand(3, 3))
user_embeddings = embedding.clone()
user_embedding_input = user_embeddings[[0], :]
a = torch.matmul(user_embedding_input, d)
user_embeddings[[0], :] = a
user_embedding_input = 3
loss = a.sum()
loss.backward()
print(d.grad.sum().item())

a = nn.Parameter(torch.tensor([[2.0]]))
b = a.clone()
d = nn.Parameter(torch.tensor(3.0))
e = b[[0], :] * d
b[0] = e
loss1 = e.sum()
e = b[[0], :] * d
b[0] = e
loss1 += e.sum()
loss1.backward()
print(d.grad, a.grad)
