from lightning.pytorch.callbacks import BaseFinetuning


class EncoderFreezeUnfreeze(BaseFinetuning):
    def __init__(self, unfreeze_at_epoch=10, train_bn=False, lr_ratio=0.1):
        super().__init__()
        self.unfreeze_at_epoch = unfreeze_at_epoch
        self.train_bn = train_bn
        self.lr_ratio = lr_ratio

    def freeze_before_training(self, pl_module):
        self.freeze(pl_module.encoder)

    def finetune_function(self, pl_module, current_epoch, optimizer):
        if current_epoch == self.unfreeze_at_epoch:
            lr = optimizer.param_groups[0]["lr"] * self.lr_ratio
            self.unfreeze_and_add_param_group(
                modules=pl_module.encoder,
                optimizer=optimizer,
                lr=lr,
                train_bn=self.train_bn,
            )


CALLBACKS = {
    "freeze_unfreeze": EncoderFreezeUnfreeze,
}


def build_callbacks(cfg):
    return [CALLBACKS[name](**kwargs) for name, kwargs in cfg.items()]
