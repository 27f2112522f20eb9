import torch


class ModleWithLoss(torch.nn.Module):
    def __init__(self, model, loss):
        super().__init__()
        self.model = model
        self.loss = loss

    def forward(self, batch):
        outputs = self.model(batch["input"])
        loss, loss_stats = self.loss(outputs, batch)
        return outputs[-1], loss, loss_stats


class BaseTrainer(object):
    def __init__(self, opt, model, optimizer=None):
        self.opt = opt
        self.loss_stats, self.loss = self._get_losses(opt)
        self.model_with_loss = ModleWithLoss(model, self.loss)
        self.optimizer = optimizer

    def run_epoch(self, phase, epoch, data_loader):
        model_with_loss = self.model_with_loss
        if phase == "train":
            model_with_loss.train()
        else:
            model_with_loss.eval()
        avg = {l: 0.0 for l in self.loss_stats}
        num_iters = len(data_loader) if self.opt.num_iters < 0 else self.opt.num_iters
        for iter_id, batch in enumerate(data_loader):
            if iter_id >= num_iters:
                break
            output, loss, loss_stats = model_with_loss(batch)
            loss = loss.mean()
            if phase == "train":
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            for l in avg:
                avg[l] += loss_stats[l].mean().item() / num_iters
        return avg, {}

    def _get_losses(self, opt):
        raise NotImplementedError

    def val(self, epoch, data_loader):
        with torch.no_grad():
            return self.run_epoch("val", epoch, data_loader)

    def train(self, epoch, data_loader):
        return self.run_epoch("train", epoch, data_loader)
