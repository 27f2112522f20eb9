import torch
import torch.nn.functional as F
from accelerate import Accelerator


def freeze_param_grad(model, patterns):
    for name, param in model.named_parameters():
        if any(p in name for p in patterns):
            param.requires_grad = False
    return model


class Trainer:
    def __init__(self, cfg, model):
        self.cfg = cfg
        self.accelerator = Accelerator(cpu=True)
        optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
        self.model, self.optimizer = self.accelerator.prepare(model, optimizer)

    def train_step(self, tokens):
        self.model.train()
        logits = self.model(tokens[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), tokens[:, 1:].reshape(-1), ignore_index=0)
        self.accelerator.backward(loss)
        self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=self.cfg.zero_grad_to_none)
        return loss.item()

    def begin_epoch(self, epoch):
        if epoch == self.cfg.freeze_at_epoch:
            freeze_param_grad(self.model, self.cfg.freeze_patterns)
            n_train = sum(p.numel() for p in self.model.parameters() if p.requires_grad)
            n_all = sum(p.numel() for p in self.model.parameters())
            print(f"num. model params: {n_all} (num. trained: {n_train})")
