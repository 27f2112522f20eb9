import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_bn_relu(cin, cout, stride=1):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class BasicBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv1 = conv_bn_relu(ch, ch)
        self.conv2 = nn.Conv2d(ch, ch, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(ch)
        self.relu = nn.ReLU(inplace=True)

    def forward(self, x):
        out = self.bn2(self.conv2(self.conv1(x)))
        out = out + x
        return self.relu(out)


class Net(nn.Module):
    def __init__(self, n_classes=6):
        super().__init__()
        self.stem = conv_bn_relu(3, 16, stride=2)
        self.blocks = nn.Sequential(BasicBlock(16), BasicBlock(16))
        self.head = nn.Sequential(
            nn.Flatten(), nn.Linear(16 * 8 * 8, 64), nn.ReLU(inplace=True), nn.Dropout(0.2), nn.Linear(64, n_classes),
        )

    def forward(self, x):
        return self.head(self.blocks(self.stem(x)))


def main():
    torch.manual_seed(0)
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True)
    for step in range(5):
        x = torch.randn(8, 3, 16, 16)
        y = torch.randint(0, 6, (8,))
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
