"""The optimizer is given only the head's parameters; the encoder, defined after the head in
__init__, gets gradients that nothing applies. The optimizer's line is the one to change (the
encoder was not made after it: the order of definition inside the model says nothing)."""
import torch
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Linear(8, 2)
        self.encoder = nn.Sequential(nn.Linear(4, 8), nn.ReLU())

    def forward(self, x):
        return self.head(self.encoder(x))


torch.manual_seed(0)
model = Classifier()
optimizer = torch.optim.SGD(model.head.parameters(), lr=0.1)
for _ in range(3):
    x, y = torch.randn(16, 4), torch.randint(0, 2, (16,))
    loss = nn.functional.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
