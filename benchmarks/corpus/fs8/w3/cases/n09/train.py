import torch
import torch.nn as nn
import torch.nn.functional as F

from privacy import PerSampleClipper


class SmallCNN(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.gn1 = nn.GroupNorm(4, 8)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.gn2 = nn.GroupNorm(4, 16)
        self.fc = nn.Linear(16 * 4 * 4, num_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.gn1(self.conv1(x))), 2)
        x = F.max_pool2d(F.relu(self.gn2(self.conv2(x))), 2)
        return self.fc(x.flatten(1))


def main():
    torch.manual_seed(0)
    model = SmallCNN()
    model.conv1.requires_grad_(False)
    clipper = PerSampleClipper(model, F.cross_entropy, max_grad_norm=1.0, noise_multiplier=0.5)
    optimizer = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.1, momentum=0.9)

    for step in range(6):
        data = torch.randn(16, 1, 16, 16)
        target = torch.randint(0, 10, (16,))
        optimizer.zero_grad(set_to_none=True)
        norms = clipper.populate_grads(data, target)
        optimizer.step()
        if step % 2 == 0:
            with torch.no_grad():
                loss = F.cross_entropy(model(data), target)
            print(f"step {step} loss={loss.item():.4f} median_norm={norms.median().item():.3f}")
    return model, clipper


if __name__ == "__main__":
    model, clipper = main()
