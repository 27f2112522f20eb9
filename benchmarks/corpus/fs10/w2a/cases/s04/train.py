import torch
import torch.nn as nn

from encoders import EncoderHeadNet
from runner import AccuracyCallback, SupervisedRunner

CONFIG = {
    "model_params": {
        "encoder_params": {"arch": "test_resnet", "pretrained": False, "frozen": True},
        "head_hiddens": [64],
        "num_classes": 4,
    },
    "optimizer_params": {"lr": 1e-3, "weight_decay": 1e-4},
    "num_epochs": 2,
}


def get_loaders(n_batches=3, batch_size=8, num_classes=4):
    g = torch.Generator().manual_seed(7)
    train = [(torch.randn(batch_size, 3, 32, 32, generator=g),
              torch.randint(0, num_classes, (batch_size,), generator=g))
             for _ in range(n_batches)]
    return {"train": train}


def main():
    torch.manual_seed(0)
    model = EncoderHeadNet(**CONFIG["model_params"])
    optimizer = torch.optim.Adam(model.parameters(), **CONFIG["optimizer_params"])
    runner = SupervisedRunner(model, nn.CrossEntropyLoss(), optimizer, callbacks=[AccuracyCallback()])
    runner.train(get_loaders(), CONFIG["num_epochs"])
    return model, optimizer


if __name__ == "__main__":
    model, optimizer = main()
