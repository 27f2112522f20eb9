import torch
import torch.nn as nn
import torch.nn.functional as F

import compat  # noqa: F401
from torchvision.models import resnet18


class CNNLSTM(nn.Module):
    def __init__(self, num_classes=2, feat_dim=300, hidden=256, lstm_layers=2):
        super().__init__()
        self.resnet = resnet18(weights=None)
        self.resnet.fc = nn.Sequential(nn.Linear(self.resnet.fc.in_features, feat_dim))
        self.lstm = nn.LSTM(input_size=feat_dim, hidden_size=hidden, num_layers=lstm_layers)
        self.fc1 = nn.Linear(hidden, 128)
        self.fc2 = nn.Linear(128, num_classes)

    def forward(self, x_3d):
        hidden = None
        for t in range(x_3d.size(1)):
            with torch.no_grad():
                x = self.resnet(x_3d[:, t, :, :, :])
            out, hidden = self.lstm(x.unsqueeze(0), hidden)

        x = self.fc1(out[-1, :, :])
        x = F.relu(x)
        x = self.fc2(x)
        return x


def generate_model(opt):
    if opt["model"] == "cnnlstm":
        return CNNLSTM(num_classes=opt["n_classes"])
    raise ValueError(opt["model"])
