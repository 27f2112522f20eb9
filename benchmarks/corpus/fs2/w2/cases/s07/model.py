import torch
import torch.nn as nn

from speaker_classifier import SpeakerClassifier, reverse_gradient


class Encoder(nn.Module):
    def __init__(self, n_symbols, dim):
        super().__init__()
        self.embedding = nn.Embedding(n_symbols, dim)
        self.convs = nn.Sequential(
            nn.Conv1d(dim, dim, 5, padding=2), nn.BatchNorm1d(dim), nn.ReLU(),
            nn.Conv1d(dim, dim, 5, padding=2), nn.BatchNorm1d(dim), nn.ReLU(),
        )
        self.lstm = nn.LSTM(dim, dim // 2, batch_first=True, bidirectional=True)

    def forward(self, text):
        x = self.embedding(text).transpose(1, 2)
        x = self.convs(x).transpose(1, 2)
        out, _ = self.lstm(x)
        return out


class Tacotron2(nn.Module):
    def __init__(self, hparams):
        super().__init__()
        self.hparams = hparams
        dim = hparams["encoder_embedding_dim"]
        self.encoder = Encoder(hparams["n_symbols"], dim)
        self.speaker_embedding = nn.Embedding(hparams["n_speakers"], hparams["speaker_embedding_dim"])
        self.decoder = nn.GRU(dim + hparams["speaker_embedding_dim"], hparams["decoder_dim"], batch_first=True)
        self.mel_proj = nn.Linear(hparams["decoder_dim"], hparams["n_mel_channels"])
        if hparams["use_speaker_adversarial"]:
            self.speaker_classifier = SpeakerClassifier(dim, hparams["speaker_classifier_hidden"], hparams["n_speakers"])

    def forward(self, text, speaker_ids):
        encoder_outputs = self.encoder(text)
        spk = self.speaker_embedding(speaker_ids)[:, None, :].expand(-1, encoder_outputs.size(1), -1)
        dec, _ = self.decoder(torch.cat([encoder_outputs, spk], dim=-1))
        mel = self.mel_proj(dec)
        speaker_logits = None
        if self.hparams["use_speaker_adversarial"]:
            reversed_text = reverse_gradient(encoder_outputs.mean(dim=1), self.hparams["grl_scale"])
            speaker_logits = self.speaker_classifier(reversed_text)
        return mel, speaker_logits
