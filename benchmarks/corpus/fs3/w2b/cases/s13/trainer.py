from collections import OrderedDict

import torch

from stats import AverageMeter


class LTRTrainer:
    def __init__(self, actor, loaders, optimizer, settings, lr_scheduler=None):
        self.actor = actor
        self.loaders = loaders
        self.optimizer = optimizer
        self.settings = settings
        self.lr_scheduler = lr_scheduler
        self.epoch = 0
        self.stats = OrderedDict({loader.name: None for loader in self.loaders})

    def cycle_dataset(self, loader):
        self.actor.train(loader.training)
        torch.set_grad_enabled(loader.training)
        for i, data in enumerate(loader, 1):
            loss, stats = self.actor(data)
            if loader.training:
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            batch_size = data["train_feat"].shape[loader.stack_dim]
            self._update_stats(stats, batch_size, loader)
            if i % self.settings["print_interval"] == 0 or i == len(loader):
                self._print_stats(i, loader)

    def train_epoch(self):
        for loader in self.loaders:
            if self.epoch % loader.epoch_interval == 0:
                self.cycle_dataset(loader)
        self._stats_new_epoch()

    def train(self, max_epochs):
        for epoch in range(1, max_epochs + 1):
            self.epoch = epoch
            self.train_epoch()
            if self.lr_scheduler is not None:
                self.lr_scheduler.step()

    def _update_stats(self, new_stats, batch_size, loader):
        if loader.name not in self.stats.keys() or self.stats[loader.name] is None:
            self.stats[loader.name] = OrderedDict({name: AverageMeter() for name in new_stats.keys()})
        for name, val in new_stats.items():
            if name not in self.stats[loader.name].keys():
                self.stats[loader.name][name] = AverageMeter()
            self.stats[loader.name][name].update(val, batch_size)

    def _print_stats(self, i, loader):
        print_str = "[%s: %d, %d / %d] " % (loader.name, self.epoch, i, len(loader))
        for name, val in self.stats[loader.name].items():
            print_str += "%s: %.5f  ,  " % (name, float(val.avg))
        print(print_str)

    def _stats_new_epoch(self):
        for loader_stats in self.stats.values():
            if loader_stats is None:
                continue
            for stat_value in loader_stats.values():
                if hasattr(stat_value, "new_epoch"):
                    stat_value.new_epoch()
