"""Embeddings initialised through `.data` (fine), then summed through `.data` in the forward
(not fine): the summed vectors carry no graph and the embedding never trains."""
import torch
import torch.nn as nn


class CBOW(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.context = nn.Embedding(vocab, dim)
        self.out = nn.Linear(dim, vocab)
        self.context.weight.data.uniform_(-0.1, 0.1)

    def forward(self, windows):
        summed = self.context(windows).data.sum(dim=1)
        return self.out(summed)


torch.manual_seed(0)
model = CBOW(20, 8)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    windows, targets = torch.randint(0, 20, (4, 3)), torch.randint(0, 20, (4,))
    loss = nn.functional.cross_entropy(model(windows), targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
