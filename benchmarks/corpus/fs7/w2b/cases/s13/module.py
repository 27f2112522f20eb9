import torch
from torch.nn.functional import mse_loss, l1_loss

from model import TorchMD_Net


class LNNP(torch.nn.Module):
    def __init__(self, hparams):
        super().__init__()
        self.hparams = hparams
        self.model = TorchMD_Net(hparams)
        self.losses = {"train_y": [], "train_dy": []}

    def configure_optimizers(self):
        return torch.optim.AdamW(self.model.parameters(), lr=self.hparams["lr"])

    def forward(self, z, pos, batch, num_graphs):
        return self.model(z, pos, batch, num_graphs)

    def step(self, data, loss_fn):
        pred, deriv = self(data["z"], data["pos"], data["batch"], data["num_graphs"])
        loss_y, loss_dy = 0, 0
        if self.hparams["derivative"]:
            loss_dy = loss_fn(deriv, data["dy"])
            self.losses["train_dy"].append(loss_dy.detach())
        loss_y = loss_fn(pred, data["y"])
        self.losses["train_y"].append(loss_y.detach())
        loss = loss_y * self.hparams["energy_weight"] + loss_dy * self.hparams["force_weight"]
        return loss

    def training_step(self, data):
        return self.step(data, mse_loss)

    def validation_step(self, data):
        with torch.enable_grad():
            return self.step(data, l1_loss)
