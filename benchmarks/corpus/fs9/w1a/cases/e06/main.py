import compat  # noqa: F401
import torch
from accelerate import Accelerator
from accelerate.utils import set_seed

from models import EdgeModel

CONFIG = {
    "MODE": 1,
    "MODEL": 1,
    "LR": 1e-4,
    "D2G_LR": 0.1,
    "BETA1": 0.0,
    "BETA2": 0.9,
    "BATCH_SIZE": 4,
    "INPUT_SIZE": 32,
    "GAN_LOSS": "nsgan",
    "FM_LOSS_WEIGHT": 10,
    "MAX_ITERS": 3,
    "LOG_INTERVAL": 1,
}


def make_batch(cfg):
    n, s = cfg["BATCH_SIZE"], cfg["INPUT_SIZE"]
    images = torch.rand(n, 3, s, s)
    edges = (torch.rand(n, 1, s, s) > 0.8).float()
    masks = torch.zeros(n, 1, s, s)
    masks[:, :, s // 4: 3 * s // 4, s // 4: 3 * s // 4] = 1
    return images, edges, masks


class EdgeConnect:
    def __init__(self, config):
        self.config = config
        self.accelerator = Accelerator(cpu=True)
        self.edge_model = EdgeModel(config, self.accelerator)

    def train(self):
        self.edge_model.train()
        for iteration in range(1, self.config["MAX_ITERS"] + 1):
            images, edges, masks = make_batch(self.config)
            if self.config["MODEL"] == 1:
                outputs, gen_loss, dis_loss, logs = self.edge_model.process(images, edges, masks)
                self.edge_model.backward(gen_loss, dis_loss)
            if iteration % self.config["LOG_INTERVAL"] == 0:
                print(iteration, {k: round(v, 4) for k, v in logs.items()})


def main():
    set_seed(10)
    model = EdgeConnect(CONFIG)
    model.train()


if __name__ == "__main__":
    main()
