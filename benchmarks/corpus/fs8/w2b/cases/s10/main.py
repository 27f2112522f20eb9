import argparse

import torch

from config import get_config
from trainer import Trainer


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--task", default="flowers5")
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args()


if __name__ == "__main__":
    args = parse_args()
    torch.manual_seed(args.seed)
    cfg = get_config(args.task)
    trainer = Trainer(cfg)
    model = trainer.fit()
