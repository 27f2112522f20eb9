import torch
import torch.nn.functional as F
from lightning.pytorch import LightningModule
from torch import nn


def accuracy_at_k(logits, target, top_k=(1,)):
    maxk = max(top_k)
    _, pred = logits.topk(maxk, 1, True, True)
    correct = pred.t().eq(target.view(1, -1).expand_as(pred.t()))
    return [correct[:k].reshape(-1).float().sum() / target.size(0) for k in top_k]


class Backbone(nn.Module):
    def __init__(self, in_dim=32, feat_dim=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 128), nn.GELU(), nn.Linear(128, feat_dim))

    def forward(self, x):
        return self.net(x)


class LinearProbe(LightningModule):
    def __init__(self, num_classes=10, in_dim=32, feat_dim=64, lr=1e-2, eval_every=5):
        super().__init__()
        self.save_hyperparameters()
        self.backbone = Backbone(in_dim, feat_dim)
        self.backbone.requires_grad_(False)
        self.classifier = nn.Linear(feat_dim, num_classes)

    def forward(self, x):
        feats = self.backbone(x)
        return {"feats": feats, "logits": self.classifier(feats)}

    def eval_step(self, eval_data):
        self.eval()
        self.freeze()
        with torch.no_grad():
            eval_ind, eval_x, eval_target = eval_data
            eval_logit = self(eval_x)["logits"]
            eval_pred = torch.argmax(eval_logit, dim=1)
            acc1, acc5 = accuracy_at_k(eval_logit, eval_target, top_k=[1, 5])
        self.unfreeze()
        self.train()
        return {"next_batch_acc1": acc1, "next_batch_acc5": acc5,
                "next_batch_pred": eval_pred, "next_batch_target": eval_target}

    def training_step(self, batch, batch_idx):
        ind, x, target = batch
        if batch_idx > 0 and batch_idx % self.hparams.eval_every == 0:
            out = self.eval_step(batch)
            self.log("next_batch_acc1", out["next_batch_acc1"])
        logits = self(x)["logits"]
        loss = F.cross_entropy(logits, target)
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=self.hparams.lr, momentum=0.9)
