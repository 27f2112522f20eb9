import torch

from losses import JointDetReIDLoss


class ModelWithLoss(torch.nn.Module):
    def __init__(self, model, loss):
        super(ModelWithLoss, self).__init__()
        self.model = model
        self.loss = loss

    def forward(self, batch):
        outputs = self.model(batch["input"])
        loss, loss_stats = self.loss(outputs, batch)
        return outputs, loss, loss_stats


class MotTrainer(object):
    def __init__(self, opt, model):
        self.opt = opt
        self.loss_stats = ["loss", "hm_loss", "wh_loss", "off_loss", "id_loss"]
        self.loss = JointDetReIDLoss(opt)
        self.model_with_loss = ModelWithLoss(model, self.loss)
        self.optimizer = None

    def set_optimizer(self, optimizer):
        self.optimizer = optimizer

    def run_epoch(self, phase, epoch, data_loader):
        model_with_loss = self.model_with_loss
        model_with_loss.train() if phase == "train" else model_with_loss.eval()
        avg = {k: 0.0 for k in self.loss_stats}
        for iter_id, batch in enumerate(data_loader):
            output, loss, loss_stats = model_with_loss(batch)
            loss = loss.mean()
            if phase == "train":
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            for k in self.loss_stats:
                avg[k] += loss_stats[k].mean().item() / len(data_loader)
        return avg

    def train(self, epoch, data_loader):
        return self.run_epoch("train", epoch, data_loader)
