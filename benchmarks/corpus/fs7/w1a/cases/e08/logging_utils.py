import numpy as np


class ScalarImageLogger:
    def __init__(self, log_scalars_every=1, log_images_every=4):
        self.log_scalars_every = log_scalars_every
        self.log_images_every = log_images_every
        self.scalars = []
        self.images = []

    def extract_images_from_batch(self, batch):
        if batch.dim() == 4:
            batch = batch[:, 0]
        batch = batch.float().numpy()
        lo = batch.min(axis=(1, 2), keepdims=True)
        hi = batch.max(axis=(1, 2), keepdims=True)
        return list((batch - lo) / (hi - lo + 1e-8))

    def end_of_iteration(self, iteration, states):
        if iteration % self.log_scalars_every == 0:
            self.scalars.append((iteration, float(states["training_loss"])))
        if iteration % self.log_images_every == 0:
            for name in ("training_inputs", "training_prediction"):
                images = self.extract_images_from_batch(states[name])
                self.images.append((iteration, name, np.stack(images).mean()))
