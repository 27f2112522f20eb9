import torch.nn as nn

from .losses import _loss_factory


class ModelWithLoss(nn.Module):
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
        self.model_with_loss = ModelWithLoss(model, self.loss)

    def _get_losses(self, opt):
        loss = _loss_factory[opt["task"]](opt)
        return ["loss", "hm_loss", "wh_loss", "id_loss"], loss

    def run_epoch(self, epoch, data_loader):
        self.model_with_loss.train()
        results = {k: 0.0 for k in self.loss_stats}
        for batch in data_loader:
            _, loss, stats = self.model_with_loss(batch)
            loss = loss.mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            for k in self.loss_stats:
                results[k] += stats[k].item() / len(data_loader)
        return results

    def train(self, epoch, data_loader):
        return self.run_epoch(epoch, data_loader)
