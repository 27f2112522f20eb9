"""Deep mutual learning: each peer's loss pulls it towards the other peer's predictions, whose
logits are not detached, so the first peer's backward also runs through the second peer's graph."""
import torch
import torch.nn.functional as F
from torch import nn


def mutual_loss(logits, peer_logits, target):
    log_p = F.log_softmax(logits, dim=1)
    q = F.softmax(peer_logits, dim=1)
    return F.cross_entropy(logits, target) + F.kl_div(log_p, q, reduction="batchmean")


torch.manual_seed(0)
peers = [nn.Linear(6, 3), nn.Linear(6, 3)]
optimizers = [torch.optim.SGD(p.parameters(), lr=0.1) for p in peers]
for step in range(2):
    x, y = torch.randn(8, 6), torch.randint(0, 3, (8,))
    outputs = [p(x) for p in peers]
    for i in range(2):
        loss = mutual_loss(outputs[i], outputs[1 - i], y)
        optimizers[i].zero_grad()
        loss.backward()
        optimizers[i].step()
