import torch.nn as nn


class SpeakerNet(nn.Module):
    def __init__(self, n_mels=40, hidden=64, n_speakers=10):
        super().__init__()
        self.frontend = nn.Sequential(
            nn.Conv1d(n_mels, hidden, kernel_size=5, padding=2),
            nn.BatchNorm1d(hidden),
            nn.ReLU(),
        )
        self.fc1 = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU())
        self.classifier = nn.Linear(hidden, n_speakers)

    def forward(self, x):
        h = self.frontend(x).mean(dim=-1)
        return self.classifier(self.fc1(h))
