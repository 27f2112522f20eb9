from viz import denormalize, format_for_plotting, grid_stats


class Callback:
    def on_batch_end(self, trainer, step, batch):
        pass


class LossPrinter(Callback):
    def on_batch_end(self, trainer, step, batch):
        print(f"step {step} loss {batch['loss']:.4f}")


class ImageLogger(Callback):
    def __init__(self, every_n_steps):
        self.every_n_steps = every_n_steps
        self.records = []

    def on_batch_end(self, trainer, step, batch):
        if step % self.every_n_steps:
            return
        for key in ("clean", "adv"):
            img = format_for_plotting(denormalize(batch[key]))
            self.records.append((step, key, grid_stats(img)))
