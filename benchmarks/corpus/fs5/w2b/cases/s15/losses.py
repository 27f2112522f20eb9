import torch
import torch.nn as nn


class MaskedMSELoss(nn.Module):
    def __init__(self, task_weights=None):
        super().__init__()
        self.mse = nn.MSELoss(reduction="none")
        self.task_weights = task_weights

    def forward(self, preds, targets):
        mask = ~torch.isnan(targets)
        per_elem = self.mse(preds, targets)
        if self.task_weights is not None:
            per_elem = per_elem * self.task_weights
        return per_elem[mask].sum() / mask.sum().clamp(min=1)
