from torch import nn


def conv_block(cin, cout, norm):
    layers = [nn.Conv2d(cin, cout, 3, padding=1)]
    if norm == "batch":
        layers.append(nn.BatchNorm2d(cout, momentum=1.0, affine=True))
    elif norm == "group":
        layers.append(nn.GroupNorm(4, cout))
    layers += [nn.ReLU(), nn.MaxPool2d(2)]
    return nn.Sequential(*layers)


class OmniglotNet(nn.Module):
    def __init__(self, n_way, hidden=32, norm="batch"):
        super().__init__()
        self.features = nn.Sequential(
            conv_block(1, hidden, norm),
            conv_block(hidden, hidden, norm),
            conv_block(hidden, hidden, norm),
        )
        self.classifier = nn.Linear(hidden * 3 * 3, n_way)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))
