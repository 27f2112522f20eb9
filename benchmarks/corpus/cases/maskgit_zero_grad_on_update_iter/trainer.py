import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskGITTrainer:
    def __init__(self, vit, codebook_size, grad_cum=4, lr=1e-3):
        self.vit = vit
        self.codebook_size = codebook_size
        self.grad_cum = grad_cum
        self.optim = torch.optim.AdamW(vit.parameters(), lr=lr, betas=(0.9, 0.96))
        self.iter = 0
        self.used_grads = []

    def criterion(self, pred, code):
        return F.cross_entropy(pred.reshape(-1, self.codebook_size + 1), code.view(-1))

    def train_one_epoch(self, loader):
        self.vit.train()
        cum_loss = 0.0
        for code, masked_code in loader:
            pred = self.vit(masked_code)
            loss = self.criterion(pred, code) / self.grad_cum

            # update weight if accumulation of gradient is done
            update_grad = self.iter % self.grad_cum == self.grad_cum - 1
            if update_grad:
                self.optim.zero_grad()

            loss.backward()

            if update_grad:
                self.used_grads.append(self.vit.head.weight.grad.clone())
                nn.utils.clip_grad_norm_(self.vit.parameters(), 1.0)
                self.optim.step()

            cum_loss += loss.item()
            self.iter += 1
        return cum_loss / len(loader)
