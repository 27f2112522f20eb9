import torch
import torch.nn.functional as F
from torch import nn


class ConvStack(nn.Module):
    def __init__(self, input_features, output_features):
        super().__init__()
        self.cnn = nn.Sequential(
            nn.Conv2d(1, output_features // 16, (3, 3), padding=1),
            nn.BatchNorm2d(output_features // 16),
            nn.ReLU(),
            nn.Conv2d(output_features // 16, output_features // 8, (3, 3), padding=1),
            nn.BatchNorm2d(output_features // 8),
            nn.ReLU(),
            nn.MaxPool2d((1, 2)),
        )
        self.fc = nn.Linear((output_features // 8) * (input_features // 2), output_features)

    def forward(self, mel):
        x = mel.unsqueeze(1)
        x = self.cnn(x)
        x = x.transpose(1, 2).flatten(-2)
        return self.fc(x)


class BiLSTM(nn.Module):
    def __init__(self, input_features, recurrent_features):
        super().__init__()
        self.rnn = nn.LSTM(input_features, recurrent_features, batch_first=True, bidirectional=True)

    def forward(self, x):
        return self.rnn(x)[0]


class OnsetsAndFrames(nn.Module):
    def __init__(self, input_features, output_features, model_complexity=8):
        super().__init__()
        model_size = model_complexity * 16
        sequence_model = lambda i, o: BiLSTM(i, o // 2)
        self.onset_stack = nn.Sequential(
            ConvStack(input_features, model_size),
            sequence_model(model_size, model_size),
            nn.Linear(model_size, output_features),
            nn.Sigmoid(),
        )
        self.offset_stack = nn.Sequential(
            ConvStack(input_features, model_size),
            sequence_model(model_size, model_size),
            nn.Linear(model_size, output_features),
            nn.Sigmoid(),
        )
        self.frame_stack = nn.Sequential(
            ConvStack(input_features, model_size),
            nn.Linear(model_size, output_features),
            nn.Sigmoid(),
        )
        self.combined_stack = nn.Sequential(
            sequence_model(output_features * 3, model_size),
            nn.Linear(model_size, output_features),
            nn.Sigmoid(),
        )
        self.velocity_stack = nn.Sequential(
            ConvStack(input_features, model_size),
            nn.Linear(model_size, output_features),
        )

    def forward(self, mel):
        onset_pred = self.onset_stack(mel)
        offset_pred = self.offset_stack(mel)
        activation_pred = self.frame_stack(mel)
        combined_pred = torch.cat([onset_pred.detach(), offset_pred.detach(), activation_pred], dim=-1)
        frame_pred = self.combined_stack(combined_pred)
        velocity_pred = self.velocity_stack(mel)
        return onset_pred, offset_pred, activation_pred, frame_pred, velocity_pred

    def run_on_batch(self, batch):
        mel = batch["mel"]
        onset_label = batch["onset"]
        offset_label = batch["offset"]
        frame_label = batch["frame"]
        velocity_label = batch["velocity"]
        onset_pred, offset_pred, _, frame_pred, velocity_pred = self(mel)
        predictions = {
            "onset": onset_pred,
            "offset": offset_pred,
            "frame": frame_pred,
            "velocity": velocity_pred,
        }
        losses = {
            "loss/onset": F.binary_cross_entropy(onset_pred, onset_label),
            "loss/offset": F.binary_cross_entropy(offset_pred, offset_label),
            "loss/frame": F.binary_cross_entropy(frame_pred, frame_label),
            "loss/velocity": self.velocity_loss(velocity_pred, velocity_label, onset_label),
        }
        return predictions, losses

    def velocity_loss(self, velocity_pred, velocity_label, onset_label):
        denominator = onset_label.sum()
        if denominator.item() == 0:
            return denominator
        return (onset_label * (velocity_label - velocity_pred) ** 2).sum() / denominator
