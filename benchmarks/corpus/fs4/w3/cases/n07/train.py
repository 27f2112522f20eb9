import torch
import torch.nn as nn
import torch.nn.functional as F

from pcgrad import PCGrad

torch.manual_seed(0)


class MultiTaskNet(nn.Module):
    def __init__(self, dim=12, hidden=32):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.cls_head = nn.Linear(hidden, 3)
        self.reg_head = nn.Linear(hidden, 1)

    def forward(self, x):
        h = self.shared(x)
        return self.cls_head(h), self.reg_head(h).squeeze(-1)


model = MultiTaskNet()
optimizer = PCGrad(torch.optim.Adam(model.parameters(), lr=1e-3))
w_true = torch.randn(12)

for step in range(25):
    x = torch.randn(32, 12)
    y_cls = (x[:, :3].argmax(dim=1))
    y_reg = x @ w_true

    logits, pred = model(x)
    losses = [F.cross_entropy(logits, y_cls), F.smooth_l1_loss(pred, y_reg)]

    optimizer.zero_grad()
    optimizer.pc_backward(losses)
    optimizer.step()

    if step % 8 == 0:
        print(f"step {step}: cls {losses[0].item():.4f} reg {losses[1].item():.4f}")
