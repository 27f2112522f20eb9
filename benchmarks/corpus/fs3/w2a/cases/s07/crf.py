import torch
from torch import nn


class CRF(nn.Module):
    def __init__(self, num_tags, batch_first=True):
        super().__init__()
        self.num_tags = num_tags
        self.batch_first = batch_first
        self.start_transitions = nn.Parameter(torch.empty(num_tags).uniform_(-0.1, 0.1))
        self.end_transitions = nn.Parameter(torch.empty(num_tags).uniform_(-0.1, 0.1))
        self.transitions = nn.Parameter(torch.empty(num_tags, num_tags).uniform_(-0.1, 0.1))

    def forward(self, emissions, tags, mask, reduction="mean"):
        if self.batch_first:
            emissions, tags, mask = emissions.transpose(0, 1), tags.transpose(0, 1), mask.transpose(0, 1)
        mask = mask.float()
        numerator = self._score(emissions, tags, mask)
        denominator = self._normalizer(emissions, mask)
        llh = numerator - denominator
        return llh.mean() if reduction == "mean" else llh.sum()

    def _score(self, emissions, tags, mask):
        seq_len, batch = tags.shape
        score = self.start_transitions[tags[0]] + emissions[0, torch.arange(batch), tags[0]]
        for i in range(1, seq_len):
            score = score + self.transitions[tags[i - 1], tags[i]] * mask[i]
            score = score + emissions[i, torch.arange(batch), tags[i]] * mask[i]
        last = tags.gather(0, (mask.long().sum(0) - 1).unsqueeze(0)).squeeze(0)
        return score + self.end_transitions[last]

    def _normalizer(self, emissions, mask):
        score = self.start_transitions + emissions[0]
        for i in range(1, emissions.shape[0]):
            nxt = torch.logsumexp(score.unsqueeze(2) + self.transitions + emissions[i].unsqueeze(1), dim=1)
            score = torch.where(mask[i].unsqueeze(1).bool(), nxt, score)
        return torch.logsumexp(score + self.end_transitions, dim=1)

    def decode(self, emissions, mask):
        if self.batch_first:
            emissions, mask = emissions.transpose(0, 1), mask.transpose(0, 1)
        score = self.start_transitions + emissions[0]
        history = []
        for i in range(1, emissions.shape[0]):
            best, idx = (score.unsqueeze(2) + self.transitions + emissions[i].unsqueeze(1)).max(dim=1)
            score = torch.where(mask[i].unsqueeze(1).bool(), best, score)
            history.append(idx)
        best_last = (score + self.end_transitions).argmax(dim=1)
        return best_last
