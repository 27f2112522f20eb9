import math

import torch
from torch import nn, optim


class BaseTrainer:
    def __init__(self, model, args):
        self.model = model
        self.args = args
        self.epochs = args["epochs"]
        self.batch_size = args["batch"]
        self.accumulate = max(round(args["nbs"] / self.batch_size), 1)
        weight_decay = args["weight_decay"] * self.batch_size * self.accumulate / args["nbs"]
        self.optimizer = self.build_optimizer(model, args["lr0"], args["momentum"], weight_decay)
        self.lf = lambda x: (1 - x / self.epochs) * (1.0 - args["lrf"]) + args["lrf"]
        self.scheduler = optim.lr_scheduler.LambdaLR(self.optimizer, lr_lambda=self.lf)

    @staticmethod
    def build_optimizer(model, lr, momentum, decay):
        g = [], [], []
        bn = tuple(v for k, v in nn.__dict__.items() if "Norm" in k)
        for module_name, module in model.named_modules():
            for param_name, param in module.named_parameters(recurse=False):
                if "bias" in param_name:
                    g[2].append(param)
                elif isinstance(module, bn):
                    g[1].append(param)
                else:
                    g[0].append(param)
        optimizer = optim.SGD(g[2], lr=lr, momentum=momentum, nesterov=True)
        optimizer.add_param_group({"params": g[0], "weight_decay": decay})
        optimizer.add_param_group({"params": g[1], "weight_decay": 0.0})
        return optimizer

    def optimizer_step(self):
        nn.utils.clip_grad_norm_(self.model.parameters(), max_norm=10.0)
        self.optimizer.step()
        self.optimizer.zero_grad()

    def _do_train(self, train_loader):
        nb = len(train_loader)
        last_opt_step = -1
        self.optimizer.zero_grad()
        for epoch in range(self.epochs):
            self.model.train()
            self.tloss = None
            self.optimizer.zero_grad()
            for i, batch in enumerate(train_loader):
                ni = i + nb * epoch
                self.loss, self.loss_items = self.model.loss(batch)
                self.tloss = (self.loss_items if self.tloss is None
                              else (self.tloss * i + self.loss_items) / (i + 1))
                self.loss.backward()
                if ni - last_opt_step >= self.accumulate:
                    self.optimizer_step()
                    last_opt_step = ni
            self.scheduler.step()
            print(f"epoch {epoch + 1}/{self.epochs}  loss {self.tloss.item():.4f}  "
                  f"lr {self.optimizer.param_groups[0]['lr']:.5f}")
