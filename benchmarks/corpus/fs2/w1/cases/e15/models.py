import torch
import torch.nn as nn
import torch.nn.functional as F

from vocab import VOCAB, encode_sequences


def feature_extractor(out_channels=64):
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, out_channels, 3, padding=1), nn.BatchNorm2d(out_channels), nn.ReLU(), nn.MaxPool2d((2, 1)),
    )


class CRNN(nn.Module):
    def __init__(self, vocab=VOCAB, max_length=8, rnn_units=64):
        super().__init__()
        self.vocab, self.max_length = vocab, max_length
        self.feat_extractor = feature_extractor()
        self.decoder = nn.LSTM(64 * 8, rnn_units, batch_first=True, bidirectional=True)
        self.linear = nn.Linear(2 * rnn_units, len(vocab) + 1)

    def compute_loss(self, logits, words):
        gt, seq_len = encode_sequences(words, self.max_length, len(self.vocab))
        probs = logits.permute(1, 0, 2).log_softmax(-1)
        input_len = torch.full((logits.size(0),), logits.size(1), dtype=torch.long)
        return F.ctc_loss(probs, gt, input_len, seq_len, blank=len(self.vocab), zero_infinity=True)

    def forward(self, x, target=None):
        feats = self.feat_extractor(x)
        b, c, h, w = feats.shape
        feats = feats.permute(0, 3, 1, 2).reshape(b, w, c * h)
        logits = self.linear(self.decoder(feats)[0])
        out = {"logits": logits}
        if target is not None:
            out["loss"] = self.compute_loss(logits, target)
        return out


class SAR(nn.Module):
    def __init__(self, vocab=VOCAB, max_length=8, rnn_units=64, attention_units=64, embedding_units=32):
        super().__init__()
        self.vocab, self.max_length = vocab, max_length
        self.feat_extractor = feature_extractor()
        self.encoder = nn.LSTM(64, rnn_units, num_layers=2, batch_first=True)
        self.embed = nn.Embedding(len(vocab) + 2, embedding_units)
        self.decoder_cell = nn.LSTMCell(embedding_units + rnn_units, rnn_units)
        self.attn_feat = nn.Conv2d(64, attention_units, 3, padding=1)
        self.attn_state = nn.Linear(rnn_units, attention_units)
        self.attn_score = nn.Conv2d(attention_units, 1, 1, bias=False)
        self.output_dense = nn.Linear(2 * rnn_units + 64, len(vocab) + 1)

    def attention(self, feats, state):
        proj = torch.tanh(self.attn_feat(feats) + self.attn_state(state)[:, :, None, None])
        weights = F.softmax(self.attn_score(proj).flatten(1), dim=1).view(feats.size(0), 1, *feats.shape[2:])
        return (feats * weights).sum(dim=(2, 3))

    def decode(self, feats, holistic, gt):
        b = feats.size(0)
        h, c = torch.zeros_like(holistic), torch.zeros_like(holistic)
        symbol = torch.full((b,), len(self.vocab) + 1, dtype=torch.long)
        logits = []
        for t in range(self.max_length + 1):
            h, c = self.decoder_cell(torch.cat([self.embed(symbol), holistic], dim=1), (h, c))
            glimpse = self.attention(feats, h)
            logits.append(self.output_dense(torch.cat([h, glimpse, holistic], dim=1)))
            symbol = gt[:, t] if gt is not None else logits[-1].argmax(-1)
        return torch.stack(logits, dim=1)

    @staticmethod
    def compute_loss(model_output, gt, seq_len):
        input_len = model_output.shape[1]
        seq_len = seq_len + 1
        cce = F.cross_entropy(model_output.permute(0, 2, 1), gt, reduction="none")
        mask_2d = torch.arange(input_len)[None, :] >= seq_len[:, None]
        cce[mask_2d] = 0
        ce_loss = cce.sum(1) / seq_len.to(dtype=model_output.dtype)
        return ce_loss.unsqueeze(1)

    def forward(self, x, target=None):
        feats = self.feat_extractor(x)
        holistic = self.encoder(feats.amax(dim=2).transpose(1, 2))[0][:, -1]
        gt, seq_len = (None, None) if target is None else encode_sequences(target, self.max_length, len(self.vocab))
        logits = self.decode(feats, holistic, gt)
        out = {"logits": logits}
        if target is not None:
            out["loss"] = self.compute_loss(logits, gt, seq_len)
        return out


ARCHS = {"crnn": CRNN, "sar": SAR}


def recognition_predictor(arch, **kwargs):
    return ARCHS[arch](**kwargs)
