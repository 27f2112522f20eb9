"""The encoder is frozen after the optimizer was built with momentum and weight decay, and
zero_grad(set_to_none=False) keeps zero gradients: SGD still moves the "frozen" weights."""
import torch
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(8, 16)
        self.head = nn.Linear(16, 2)

    def forward(self, x):
        return self.head(torch.relu(self.encoder(x)))


torch.manual_seed(0)
model = Classifier()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-2)
x, y = torch.randn(16, 8), torch.randint(0, 2, (16,))
for epoch in range(4):
    if epoch == 1:
        for p in model.encoder.parameters():
            p.requires_grad = False
    optimizer.zero_grad(set_to_none=False)
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
