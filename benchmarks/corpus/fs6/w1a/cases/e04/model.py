import torch
import torch.nn as nn

from rnn import StackedGRU


class KeywordSpotter(nn.Module):
    def __init__(self, n_mels=20, channels=16, hidden=32, layers=2, n_keywords=6,
                 n_speakers=8, speaker_init=False):
        super().__init__()
        self.frontend = nn.Sequential(
            nn.Conv1d(n_mels, channels, 5, padding=2),
            nn.BatchNorm1d(channels),
            nn.ReLU(),
            nn.Conv1d(channels, channels, 3, stride=2, padding=1),
            nn.ReLU(),
        )
        self.rnn = StackedGRU(channels, hidden, num_layers=layers, batch_first=True)
        self.classifier = nn.Linear(hidden, n_keywords)
        self.layers = layers
        self.hidden = hidden
        self.speaker_init = speaker_init
        if speaker_init:
            self.speaker_embedding = nn.Embedding(n_speakers, 16)
            self.init_proj = nn.Linear(16, layers * hidden)

    def initial_state(self, speaker):
        if not self.speaker_init:
            return None
        h0 = torch.tanh(self.init_proj(self.speaker_embedding(speaker)))
        return h0.reshape(-1, self.layers, self.hidden).transpose(0, 1).contiguous()

    def forward(self, mels, speaker):
        feats = self.frontend(mels).transpose(1, 2)
        out, _ = self.rnn(feats, self.initial_state(speaker))
        return self.classifier(out[:, -1])
