import math

import numpy as np
import torch
import torch.nn.functional as F


def cross_entropy2d(input, target, size_average=True):
    n, c, h, w = input.size()
    log_p = F.log_softmax(input, dim=1)
    log_p = log_p.transpose(1, 2).transpose(2, 3).contiguous()
    log_p = log_p[target.view(n, h, w, 1).repeat(1, 1, 1, c) >= 0]
    log_p = log_p.view(-1, c)
    mask = target >= 0
    target = target[mask]
    loss = F.nll_loss(log_p, target, reduction="sum")
    if size_average:
        loss /= mask.sum().item()
    return loss


def label_accuracy_score(label_trues, label_preds, n_class):
    hist = np.zeros((n_class, n_class))
    for lt, lp in zip(label_trues, label_preds):
        mask = (lt >= 0) & (lt < n_class)
        hist += np.bincount(n_class * lt[mask].astype(int) + lp[mask],
                            minlength=n_class ** 2).reshape(n_class, n_class)
    acc = np.diag(hist).sum() / hist.sum()
    return acc


class Trainer:
    def __init__(self, model, optimizer, train_loader, val_loader, max_iter, interval_validate=None):
        self.model = model
        self.optim = optimizer
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.interval_validate = interval_validate or len(self.train_loader)
        self.epoch = 0
        self.iteration = 0
        self.max_iter = max_iter
        self.best_mean_iu = 0

    def validate(self):
        self.model.eval()
        n_class = self.model.score_fr.out_channels
        val_loss = 0
        label_trues, label_preds = [], []
        for data, target in self.val_loader:
            with torch.no_grad():
                score = self.model(data)
            val_loss += cross_entropy2d(score, target).item() / len(data)
            lbl_pred = score.max(1)[1].numpy()
            label_trues.extend(target.numpy())
            label_preds.extend(lbl_pred)
        acc = label_accuracy_score(label_trues, label_preds, n_class)
        print(f"iter {self.iteration} val_loss {val_loss / len(self.val_loader):.4f} acc {acc:.3f}")

    def train_epoch(self):
        self.model.train()
        n_class = self.model.score_fr.out_channels
        for batch_idx, (data, target) in enumerate(self.train_loader):
            iteration = batch_idx + self.epoch * len(self.train_loader)
            if self.iteration != 0 and (iteration - 1) != self.iteration:
                continue
            self.iteration = iteration

            if self.iteration % self.interval_validate == 0:
                self.validate()

            self.optim.zero_grad()
            score = self.model(data)
            loss = cross_entropy2d(score, target)
            loss /= len(data)
            if np.isnan(float(loss.item())):
                raise ValueError("loss is nan while training")
            loss.backward()
            self.optim.step()

            if self.iteration >= self.max_iter:
                break

    def train(self):
        max_epoch = int(math.ceil(1.0 * self.max_iter / len(self.train_loader)))
        for epoch in range(max_epoch):
            self.epoch = epoch
            self.train_epoch()
            if self.iteration >= self.max_iter:
                break
