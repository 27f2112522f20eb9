import torch.nn as nn

import functional as F


class DiceLoss(nn.Module):
    def __init__(self, eps=1.0, beta=1.0, activation=None, threshold=None):
        super().__init__()
        self.eps, self.beta, self.threshold = eps, beta, threshold
        self.activation = activation or nn.Identity()

    def forward(self, y_pr, y_gt):
        y_pr = self.activation(y_pr)
        return 1 - F.f_score(y_pr, y_gt, beta=self.beta, eps=self.eps, threshold=self.threshold)
