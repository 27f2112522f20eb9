"""A fine-tuning script, all inside main(): the backbone is "frozen" with .eval(), which only
switches its batch norm to running statistics; its weights stay in the optimizer and train."""
import torch
import torch.nn as nn


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(6, 16), nn.BatchNorm1d(16), nn.ReLU())
        self.head = nn.Linear(16, 2)

    def forward(self, x):
        return self.head(self.backbone(x))


def main(freeze_backbone=True):
    torch.manual_seed(0)
    model = Regressor()
    if freeze_backbone:
        model.backbone.eval()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for _ in range(3):
        loss = model(torch.randn(8, 6)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"loss {loss.item():.4f}")


main()
