import torch
import torch.nn as nn

from autograd_ops import get_tot_scores


class AcousticModel(nn.Module):
    def __init__(self, feat_dim=20, hidden=48, num_arcs=12):
        super().__init__()
        self.encoder = nn.GRU(feat_dim, hidden, batch_first=True)
        self.out = nn.Linear(hidden, num_arcs)

    def forward(self, feats):
        h, _ = self.encoder(feats)
        return torch.log_softmax(self.out(h), dim=-1)


class MMILoss(nn.Module):
    """-(numerator total score - denominator total score), averaged over the batch."""

    def __init__(self, den_scale=1.0):
        super().__init__()
        self.den_scale = den_scale

    def forward(self, nnet_output, num_mask, lengths):
        num_scores = nnet_output.masked_fill(~num_mask, -1e4)
        num_tot = get_tot_scores(num_scores, lengths)
        den_tot = get_tot_scores(nnet_output * self.den_scale, lengths)
        return -(num_tot - den_tot).sum() / lengths.sum()
