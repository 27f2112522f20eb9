import torch.nn as nn
import torch.nn.functional as F


class KLLoss(nn.Module):
    def __init__(self, temperature=1.0):
        super().__init__()
        self.temperature = temperature

    def forward(self, logits, target_logits):
        t = self.temperature
        log_p = F.log_softmax(logits / t, dim=1)
        q = F.softmax(target_logits / t, dim=1)
        return F.kl_div(log_p, q, reduction="batchmean") * t * t


class MutualLoss(nn.Module):
    def __init__(self, temperature=1.0):
        super().__init__()
        self.ce = nn.CrossEntropyLoss()
        self.kl = KLLoss(temperature)

    def forward(self, outputs, target, index):
        loss = self.ce(outputs[index], target)
        peers = [o for j, o in enumerate(outputs) if j != index]
        if peers:
            loss = loss + sum(self.kl(outputs[index], o) for o in peers) / len(peers)
        return loss
