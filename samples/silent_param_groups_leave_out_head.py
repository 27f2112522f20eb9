"""Parameter groups written by hand (no weight decay on the encoder's norms, decay on the rest of
the encoder): the projection head added to the model later is in no group, so it gets gradients
but the optimizer never changes it."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(8, 16), nn.LayerNorm(16), nn.ReLU())
        self.projection = nn.Linear(16, 4)

    def forward(self, x):
        return self.projection(self.encoder(x))


def param_groups(model, weight_decay):
    return [
        {"params": [p for n, p in model.encoder.named_parameters() if "1." in n], "weight_decay": 0.0},
        {"params": [p for n, p in model.encoder.named_parameters() if "1." not in n], "weight_decay": weight_decay},
    ]


torch.manual_seed(0)
model = Model()
optimizer = torch.optim.AdamW(param_groups(model, 0.01), lr=1e-2)
for step in range(3):
    loss = model(torch.randn(8, 8)).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"loss {loss.item():.4f}")
