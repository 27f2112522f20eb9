import torch.nn as nn


class EmbeddingNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.convnet = nn.Sequential(
            nn.Conv2d(1, 16, 5), nn.PReLU(), nn.MaxPool2d(2, stride=2),
            nn.Conv2d(16, 32, 5), nn.PReLU(), nn.MaxPool2d(2, stride=2),
        )
        self.fc = nn.Sequential(
            nn.Linear(32 * 4 * 4, 128), nn.PReLU(),
            nn.Linear(128, 64), nn.PReLU(),
            nn.Linear(64, 2),
        )

    def forward(self, x):
        output = self.convnet(x)
        output = output.view(output.size()[0], -1)
        return self.fc(output)

    def get_embedding(self, x):
        return self.forward(x)


class SiameseNet(nn.Module):
    def __init__(self, embedding_net):
        super().__init__()
        self.embedding_net = embedding_net

    def forward(self, x1, x2):
        return self.embedding_net(x1), self.embedding_net(x2)

    def get_embedding(self, x):
        return self.embedding_net(x)
