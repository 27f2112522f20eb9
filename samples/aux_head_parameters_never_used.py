"""A hypergradient step asks torch.autograd.grad for the gradient of every parameter of a model
in eval mode, whose auxiliary head runs only in train mode."""
import torch
import torch.nn.functional as F
from torch import nn


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(6, 6)
        self.head = nn.Linear(6, 3)
        self.aux = nn.Linear(6, 3)

    def forward(self, x):
        h = torch.relu(self.body(x))
        if self.training:
            return self.head(h), self.aux(h)
        return self.head(h)


def outer_gradients(loss, params):
    return torch.autograd.grad(loss, params)


torch.manual_seed(0)
model = Classifier()
model.eval()
loss = F.cross_entropy(model(torch.randn(4, 6)), torch.randint(0, 3, (4,)))
grads = outer_gradients(loss, list(model.parameters()))
