import argparse

import torch

from configs import CONFIGS
from model import Encoder
from trainer import Trainer


def build_model(cfg):
    model = Encoder(cfg["dim"], cfg["depth"], cfg["heads"], cfg["num_classes"], cfg["adapter_dim"])
    if cfg["gradient_checkpointing"]:
        model.enable_gradient_checkpointing()
    return model


def synthetic_batches(n, batch_size=8, seq_len=24, num_classes=10):
    g = torch.Generator().manual_seed(0)
    for _ in range(n):
        ids = torch.randint(0, 256, (batch_size, seq_len), generator=g)
        labels = torch.randint(0, num_classes, (batch_size,), generator=g)
        yield ids, labels


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="adapter_ckpt", choices=sorted(CONFIGS))
    args = parser.parse_args()
    cfg = CONFIGS[args.config]
    torch.manual_seed(0)
    model = build_model(cfg)
    trainer = Trainer(model, cfg)
    trainer.fit(synthetic_batches(cfg["steps"]))


if __name__ == "__main__":
    main()
