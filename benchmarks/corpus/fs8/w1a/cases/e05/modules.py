import torch
from torch import nn


class ModalityEncoder(nn.Module):
    def __init__(self, in_dim, hidden):
        super().__init__()
        self.proj = nn.Linear(in_dim, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)

    def forward(self, x):
        out, _ = self.rnn(torch.tanh(self.proj(x)))
        return out


class CrossModalFusion(nn.Module):
    def __init__(self, hidden, n_modalities, mode="concat"):
        super().__init__()
        self.hidden = hidden
        self.mode = mode
        self.gate = nn.Linear(hidden * n_modalities, n_modalities)
        self.out = nn.Linear(hidden * n_modalities, hidden)

    def forward(self, states):
        joint = torch.cat(states, dim=-1)
        if self.mode == "gated":
            weights = torch.sigmoid(self.gate(joint))
            parts = list(torch.split(joint, self.hidden, dim=-1))
            for i, part in enumerate(parts):
                part.mul_(weights[..., i:i + 1])
            joint = torch.cat(parts, dim=-1)
        return torch.tanh(self.out(joint))


class EmotionDecoder(nn.Module):
    def __init__(self, hidden, n_labels):
        super().__init__()
        self.embed = nn.Embedding(n_labels + 1, hidden)
        self.cell = nn.GRUCell(hidden * 2, hidden)
        self.attn = nn.Linear(hidden, hidden)
        self.classifier = nn.Linear(hidden, n_labels)
        self.bos = n_labels

    def forward(self, memory, targets):
        b, steps = targets.shape
        h = memory.mean(dim=1)
        prev = torch.full((b,), self.bos, dtype=torch.long)
        logits = []
        for t in range(steps):
            scores = torch.bmm(memory, self.attn(h).unsqueeze(-1)).squeeze(-1)
            ctx = torch.bmm(torch.softmax(scores, dim=-1).unsqueeze(1), memory).squeeze(1)
            h = self.cell(torch.cat([self.embed(prev), ctx], dim=-1), h)
            logits.append(self.classifier(h))
            prev = targets[:, t]
        return torch.stack(logits, dim=1)
