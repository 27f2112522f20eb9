"""Training and validation share one `compute_loss` helper; `evaluate` switches the model to eval
mode and nothing switches it back, because `.train()` runs once, before the loop. Every step
after the first validation trains with dropout off. Nothing raises."""
import torch
import torch.nn as nn


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(6, 24)
        self.dropout = nn.Dropout(0.3)
        self.head = nn.Linear(24, 3)

    def forward(self, x):
        return self.head(self.dropout(torch.tanh(self.embed(x))))


def compute_loss(model, x, y):
    return nn.functional.cross_entropy(model(x), y)


def evaluate(model, batches):
    model.eval()
    with torch.no_grad():
        return sum(compute_loss(model, x, y).item() for x, y in batches) / len(batches)


torch.manual_seed(0)
model = Tagger()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
train_batches = [(torch.randn(8, 6), torch.randint(0, 3, (8,))) for _ in range(8)]
val_batches = [(torch.randn(8, 6), torch.randint(0, 3, (8,))) for _ in range(2)]
model.train()
for step, (x, y) in enumerate(train_batches, 1):
    optimizer.zero_grad()
    loss = compute_loss(model, x, y)
    loss.backward()
    optimizer.step()
    if step % 3 == 0:
        print(f"step {step}: train {loss.item():.3f} val {evaluate(model, val_batches):.3f}")
