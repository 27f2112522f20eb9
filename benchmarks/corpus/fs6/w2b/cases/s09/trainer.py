import time

import torch

from losses import MotLoss


class ModleWithLoss(torch.nn.Module):
    def __init__(self, model, loss):
        super().__init__()
        self.model = model
        self.loss = loss

    def forward(self, batch):
        outputs = self.model(batch["input"])
        loss, loss_stats = self.loss(outputs, batch)
        return outputs[-1], loss, loss_stats


class BaseTrainer:
    def __init__(self, opt, model, optimizer=None):
        self.opt = opt
        self.optimizer = optimizer
        self.loss_stats, self.loss = self._get_losses(opt)
        self.model_with_loss = ModleWithLoss(model, self.loss)

    def set_optimizer(self, optimizer):
        self.optimizer = optimizer

    def run_epoch(self, phase, epoch, data_loader):
        model_with_loss = self.model_with_loss
        model_with_loss.train() if phase == "train" else model_with_loss.eval()
        avg = {k: 0.0 for k in self.loss_stats}
        start = time.time()
        n = 0
        for iter_id, batch in enumerate(data_loader):
            if iter_id >= self.opt["num_iters"]:
                break
            output, loss, loss_stats = model_with_loss(batch)
            loss = loss.mean()
            if phase == "train":
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            for k in avg:
                avg[k] += loss_stats[k].mean().item()
            n += 1
        ret = {k: v / max(n, 1) for k, v in avg.items()}
        ret["time"] = time.time() - start
        return ret

    def train(self, epoch, data_loader):
        return self.run_epoch("train", epoch, data_loader)

    def _get_losses(self, opt):
        raise NotImplementedError


class MotTrainer(BaseTrainer):
    def _get_losses(self, opt):
        loss_states = ["loss", "hm_loss", "wh_loss", "off_loss", "id_loss"]
        return loss_states, MotLoss(opt)


train_factory = {"mot": MotTrainer}
