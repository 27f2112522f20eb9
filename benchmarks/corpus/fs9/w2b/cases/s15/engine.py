import contextlib

import torch

from updater import Updater

_AMP_DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16}


class Engine:
    def __init__(self, config, network, device="cpu"):
        self.config = config
        self.network = network
        self.device = device
        self.updater = Updater(config, network)
        amp = config.get("torch_amp")
        self._amp_dtype = _AMP_DTYPES[amp["dtype"]] if amp else None
        self._grad_scaler = torch.amp.GradScaler(device) if self._amp_dtype == torch.float16 else None
        self.epoch = 0
        self.global_train_step = 0

    def _autocast(self):
        if self._amp_dtype is None:
            return contextlib.nullcontext()
        return torch.autocast(device_type=self.device, dtype=self._amp_dtype)

    def train_step(self, data, targets):
        self.updater.optimizer.zero_grad()
        with self._autocast():
            loss = self.network.compute_loss(data, targets)
        if self._grad_scaler is not None:
            self._grad_scaler.scale(loss).backward()
        else:
            loss.backward()
        self.updater.step(grad_scaler=self._grad_scaler)
        self.global_train_step += 1
        return loss.detach()

    def train_epoch(self, dataset):
        self.network.train()
        self.epoch += 1
        total = 0.0
        for data, targets in dataset:
            total += float(self.train_step(data, targets))
        print(f"epoch {self.epoch} train score {total / len(dataset):.4f} steps {self.global_train_step}")
