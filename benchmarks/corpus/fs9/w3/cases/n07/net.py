import torch.nn as nn


class ConvBlock(nn.Module):
    def __init__(self, cin, cout, k=5):
        super().__init__()
        self.conv = nn.Conv1d(cin, cout, k, padding=k // 2)
        self.bn = nn.BatchNorm1d(cout)
        self.act = nn.SiLU(inplace=True)

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class SignalClassifier(nn.Module):
    def __init__(self, in_ch=4, width=32, n_classes=6):
        super().__init__()
        self.features = nn.Sequential(ConvBlock(in_ch, width), ConvBlock(width, width),
                                      nn.MaxPool1d(2), ConvBlock(width, 2 * width))
        self.pool = nn.AdaptiveAvgPool1d(1)
        self.fc = nn.Linear(2 * width, n_classes)

    def forward(self, x):
        return self.fc(self.pool(self.features(x)).flatten(1))
