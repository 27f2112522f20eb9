"""The optimizer is built from a first model; the model is then built again, and the new one is
trained: its parameters get gradients that no optimizer steps."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc(x)


model = Classifier()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
model = Classifier()  # built again: the optimizer holds the first one
for step in range(3):
    loss = nn.functional.cross_entropy(model(torch.randn(4, 8)), torch.randint(0, 3, (4,)))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print("trained")
