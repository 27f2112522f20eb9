import compat  # noqa: F401
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F

from optim import build_optimizer, cosine_lr


class TabularRegressor(L.LightningModule):
    def __init__(self, cfg):
        super().__init__()
        self.save_hyperparameters(cfg)
        self.cfg = cfg
        self.automatic_optimization = False
        dims = [cfg["model"]["in_dim"], *cfg["model"]["hidden"], 1]
        layers = []
        for a, b in zip(dims[:-2], dims[1:-1]):
            layers += [nn.Linear(a, b), nn.GELU(), nn.Dropout(cfg["model"]["dropout"])]
        layers.append(nn.Linear(dims[-2], dims[-1]))
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x).squeeze(-1)

    def training_step(self, batch, batch_idx):
        opt = self.optimizers()
        sched = self.lr_schedulers()
        x, y = batch

        def closure():
            opt.zero_grad()
            pred = self(x)
            loss = F.smooth_l1_loss(pred, y)
            self.manual_backward(loss)
            return loss

        loss = opt.step(closure=closure)
        sched.step()
        self.log("train_loss", loss, prog_bar=False)
        return loss

    def configure_optimizers(self):
        ocfg = self.cfg["optim"]
        optimizer = build_optimizer(self.parameters(), ocfg)
        total = self.cfg["trainer"]["max_steps"]
        scheduler = torch.optim.lr_scheduler.LambdaLR(
            optimizer, lambda s: cosine_lr(s, total, ocfg["warmup_steps"])
        )
        return [optimizer], [scheduler]
