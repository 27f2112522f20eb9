"""Seed note 4: writing a row back into the tensor it was read from (CopySlices).

`row = user_embeddings[0]` is a view; matmul saves it; `user_embeddings[0] = a` writes through
the same memory, so backward fails.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
embedding = nn.Parameter(torch.rand(2, 3))
d = nn.Parameter(torch.rand(3, 3))
user_embeddings = embedding.clone()
user_embedding_input = user_embeddings[0]
a = torch.matmul(d, user_embedding_input)
print(a)
user_embeddings[0] = a
loss = a.sum()
loss.backward()
