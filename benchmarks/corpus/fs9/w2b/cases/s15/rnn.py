import sys

import torch

from engine import Engine
from model import FrameClassifier

config = {
    "task": "train",
    "num_epochs": 2,
    "learning_rate": 0.05,
    "optimizer": {"class": "sgd", "momentum": 0.9, "nesterov": True},
    "gradient_clip_global_norm": 5.0,
    "gradient_noise": 0.0,
    "torch_amp": {"dtype": "float16"},
}


def make_dataset(n_batches=6, batch=4, frames=50, seed=42):
    gen = torch.Generator().manual_seed(seed)
    data = []
    for _ in range(n_batches):
        x = torch.randn(batch, frames, 40, generator=gen)
        y = torch.randint(0, 30, (batch, frames), generator=gen)
        data.append((x, y))
    return data


def main(argv):
    torch.manual_seed(0)
    for arg in argv[1:]:
        key, value = arg.lstrip("-").split("=", 1)
        config[key] = type(config[key])(value) if key in config else value
    network = FrameClassifier()
    engine = Engine(config, network)
    dataset = make_dataset()
    for _ in range(config["num_epochs"]):
        engine.train_epoch(dataset)
    return engine


if __name__ == "__main__":
    engine = main(sys.argv)
