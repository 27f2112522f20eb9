import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, in_dim, hidden):
        super().__init__()
        self.fc1 = nn.Linear(in_dim, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.act = nn.GELU()

    def forward(self, x):
        return self.act(self.fc2(self.act(self.fc1(x))))


class Classifier(nn.Module):
    def __init__(self, in_dim=32, hidden=64, n_classes=4):
        super().__init__()
        self.encoder = Encoder(in_dim, hidden)
        self.head = nn.Linear(hidden, n_classes)

    def forward(self, x):
        return self.head(self.encoder(x))
