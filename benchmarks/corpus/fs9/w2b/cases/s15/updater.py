import torch


def _get_optimizer_class(name):
    return {"adam": torch.optim.Adam, "adamw": torch.optim.AdamW, "sgd": torch.optim.SGD}[name.lower()]


class Updater:
    def __init__(self, config, network):
        self.config = config
        self.network = network
        opt_opts = dict(config["optimizer"])
        cls = _get_optimizer_class(opt_opts.pop("class"))
        self.learning_rate = config["learning_rate"]
        self.optimizer = cls(network.parameters(), lr=self.learning_rate, **opt_opts)
        self._grad_clip_global_norm = config.get("gradient_clip_global_norm", 0.0)
        self._grad_noise = config.get("gradient_noise", 0.0)

    def set_learning_rate(self, lr):
        for group in self.optimizer.param_groups:
            group["lr"] = lr

    def step(self, *, grad_scaler=None):
        if self._grad_noise:
            for p in self.network.parameters():
                if p.grad is not None:
                    p.grad.add_(torch.randn_like(p.grad) * self._grad_noise)
        if self._grad_clip_global_norm:
            torch.nn.utils.clip_grad_norm_(self.network.parameters(), self._grad_clip_global_norm)
        if grad_scaler is not None:
            grad_scaler.step(self.optimizer)
            grad_scaler.update()
        else:
            self.optimizer.step()
