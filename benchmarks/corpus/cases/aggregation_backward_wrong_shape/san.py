import torch
import torch.nn as nn

from aggregation import aggregation


class SAM(nn.Module):
    """Patchwise self-attention: weights from a small MLP, applied with a custom aggregation op."""

    def __init__(self, in_planes, rel_planes, out_planes, kernel_size=3):
        super().__init__()
        self.kernel_size = kernel_size
        self.conv1 = nn.Conv2d(in_planes, rel_planes, 1)
        self.conv3 = nn.Conv2d(in_planes, out_planes, 1)
        self.conv_w = nn.Sequential(
            nn.BatchNorm2d(rel_planes), nn.ReLU(),
            nn.Conv2d(rel_planes, kernel_size ** 2, 1))

    def forward(self, x):
        n, _, h, w = x.shape
        w_logits = self.conv_w(self.conv1(x)).view(n, self.kernel_size ** 2, h * w)
        return aggregation(self.conv3(x), w_logits.softmax(dim=1), self.kernel_size, self.kernel_size // 2)


class SAN(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU())
        self.sam = SAM(16, 4, 16)
        self.head = nn.Sequential(nn.BatchNorm2d(16), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                                  nn.Linear(16, num_classes))

    def forward(self, x):
        x = self.stem(x)
        return self.head(x + self.sam(x))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SAN()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for step in range(3):
        images, labels = torch.randn(2, 3, 24, 44), torch.randint(0, 10, (2,))
        loss = nn.functional.cross_entropy(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss {loss.item():.4f}")
