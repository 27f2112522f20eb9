"""A backbone frozen, then made trainable again by the loop that builds the optimizer's
parameter groups: the freeze never takes effect."""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
for p in model[0].parameters():
    p.requires_grad = False  # freeze the first layer

decay, no_decay = [], []
for name, p in model.named_parameters():
    p.requires_grad = True  # undoes the freeze above
    (no_decay if name.endswith("bias") else decay).append(p)
optimizer = torch.optim.SGD([{"params": decay, "weight_decay": 1e-4}, {"params": no_decay}], lr=0.1)
for step in range(3):
    loss = nn.functional.cross_entropy(model(torch.randn(4, 8)), torch.randint(0, 2, (4,)))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print("trained")
