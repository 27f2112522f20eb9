import torch
import torch.nn as nn

from adder import adder2d


class AdderNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(8)
        self.adder1 = adder2d(8, 16, 3, stride=2, padding=1)
        self.bn2 = nn.BatchNorm2d(16)
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        x = torch.relu(self.bn1(self.conv1(x)))
        x = torch.relu(self.bn2(self.adder1(x)))
        return self.fc(x.mean(dim=(2, 3)))


def train(net, optimizer, criterion, epoch, steps=3):
    net.train()
    for i in range(steps):
        images, labels = torch.randn(8, 3, 16, 16), torch.randint(0, 10, (8,))
        optimizer.zero_grad()
        loss = criterion(net(images), labels)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    net = AdderNet()
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
    for epoch in range(2):
        train(net, optimizer, nn.CrossEntropyLoss(), epoch)
