import torch.nn as nn


class ResidualBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.in1 = nn.InstanceNorm2d(channels, affine=True)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)
        self.in2 = nn.InstanceNorm2d(channels, affine=True)
        self.relu = nn.ReLU()

    def forward(self, x):
        out = self.relu(self.in1(self.conv1(x)))
        return self.in2(self.conv2(out)) + x


class TransformerNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.down = nn.Sequential(
            nn.Conv2d(3, 16, 9, padding=4), nn.InstanceNorm2d(16, affine=True), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.InstanceNorm2d(32, affine=True), nn.ReLU(),
        )
        self.res = nn.Sequential(ResidualBlock(32), ResidualBlock(32))
        self.up = nn.Sequential(
            nn.Upsample(scale_factor=2), nn.Conv2d(32, 16, 3, padding=1),
            nn.InstanceNorm2d(16, affine=True), nn.ReLU(),
            nn.Conv2d(16, 3, 9, padding=4),
        )
        self.out_act = nn.Tanh()

    def forward(self, x):
        y = self.up(self.res(self.down(x)))
        return self.out_act(y)
