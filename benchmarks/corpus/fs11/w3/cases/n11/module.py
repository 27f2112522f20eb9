import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F


def project_conflicting(g_a, g_b):
    dot = torch.dot(g_a, g_b)
    if dot < 0:
        g_a = g_a - dot / (g_b.norm() ** 2 + 1e-12) * g_b
    return g_a


class MultiTaskModule(L.LightningModule):
    def __init__(self, in_dim=16, hidden=32, n_classes=3, lr=1e-2):
        super().__init__()
        self.save_hyperparameters()
        self.automatic_optimization = False
        self.trunk = nn.Sequential(nn.Linear(in_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.cls_head = nn.Linear(hidden, n_classes)
        self.reg_head = nn.Linear(hidden, 1)

    def forward(self, x):
        h = self.trunk(x)
        return self.cls_head(h), self.reg_head(h).squeeze(-1)

    def _flat_grads(self, params):
        return torch.cat([p.grad.reshape(-1) if p.grad is not None else torch.zeros(p.numel())
                          for p in params])

    def training_step(self, batch, batch_idx):
        x, y_cls, y_reg = batch
        opt = self.optimizers()
        logits, pred = self(x)
        loss_cls = F.cross_entropy(logits, y_cls)
        loss_reg = F.mse_loss(pred, y_reg)
        shared = list(self.trunk.parameters())

        opt.zero_grad()
        self.manual_backward(loss_cls, retain_graph=True)
        g_cls = self._flat_grads(shared)
        head_grads = {id(p): p.grad.clone() for p in self.cls_head.parameters()}

        opt.zero_grad()
        self.manual_backward(loss_reg)
        g_reg = self._flat_grads(shared)

        merged = project_conflicting(g_cls, g_reg) + project_conflicting(g_reg, g_cls)
        offset = 0
        for p in shared:
            n = p.numel()
            p.grad = merged[offset:offset + n].view_as(p).clone()
            offset += n
        for p in self.cls_head.parameters():
            p.grad = head_grads[id(p)]
        opt.step()
        self.log_dict({"loss_cls": loss_cls, "loss_reg": loss_reg}, prog_bar=False)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=self.hparams.lr, momentum=0.9)
