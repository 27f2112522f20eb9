import torch
from torch import nn


class FCN32s(nn.Module):
    def __init__(self, n_class=4):
        super().__init__()
        self.conv1_1 = nn.Conv2d(3, 16, 3, padding=1)
        self.relu1_1 = nn.ReLU(inplace=True)
        self.pool1 = nn.MaxPool2d(2, stride=2, ceil_mode=True)
        self.conv2_1 = nn.Conv2d(16, 32, 3, padding=1)
        self.relu2_1 = nn.ReLU(inplace=True)
        self.pool2 = nn.MaxPool2d(2, stride=2, ceil_mode=True)

        self.fc6 = nn.Conv2d(32, 64, 3, padding=1)
        self.relu6 = nn.ReLU(inplace=True)
        self.drop6 = nn.Dropout2d()
        self.fc7 = nn.Conv2d(64, 64, 1)
        self.relu7 = nn.ReLU(inplace=True)
        self.drop7 = nn.Dropout2d()

        self.score_fr = nn.Conv2d(64, n_class, 1)
        self.upscore = nn.ConvTranspose2d(n_class, n_class, 8, stride=4, padding=2, bias=False)

    def forward(self, x):
        h = self.pool1(self.relu1_1(self.conv1_1(x)))
        h = self.pool2(self.relu2_1(self.conv2_1(h)))
        h = self.drop6(self.relu6(self.fc6(h)))
        h = self.drop7(self.relu7(self.fc7(h)))
        h = self.score_fr(h)
        return self.upscore(h)
