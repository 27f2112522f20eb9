import torch
import torch.nn.functional as F

from sam import SAM


class Trainer:
    def __init__(self, model, cfg):
        self.model = model
        self.cfg = cfg
        self.optimizer = SAM(model.parameters(), torch.optim.SGD, rho=cfg["rho"],
                             adaptive=cfg["adaptive"], lr=cfg["lr"], momentum=0.9,
                             weight_decay=cfg["weight_decay"])
        self.global_step = 0

    def gap_weight(self):
        if self.global_step < self.cfg["gap_warmup_steps"]:
            return 0.0
        return self.cfg["gap_alpha"]

    def criterion(self, pred, target):
        return F.smooth_l1_loss(pred, target, beta=self.cfg["huber_beta"])

    def train_step(self, x, y):
        alpha = self.gap_weight()

        loss_clean = self.criterion(self.model(x), y)
        loss_clean.backward(retain_graph=alpha > 0)
        self.optimizer.first_step(zero_grad=True)

        loss_adv = self.criterion(self.model(x), y)
        loss = loss_adv
        if alpha > 0:
            loss = loss + alpha * (loss_adv - loss_clean)
        loss.backward()
        self.optimizer.second_step(zero_grad=True)

        self.global_step += 1
        return loss_clean.item(), loss_adv.item()

    def fit(self, loader, epochs):
        self.model.train()
        for epoch in range(epochs):
            for x, y in loader:
                clean, adv = self.train_step(x, y)
            print(f"epoch {epoch} step {self.global_step} clean {clean:.4f} adv {adv:.4f}")
