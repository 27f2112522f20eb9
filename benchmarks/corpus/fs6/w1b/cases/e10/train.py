import torch

from architectures import MLP, ConvTrunk
from losses import ContrastiveLoss
from trainers import TRAINERS

config = {
    "trainer": "TrainWithClassifier",
    "embedding_size": 64,
    "num_classes": 10,
    "classifier_hidden": 128,
    "lr": {"trunk": 1e-3, "embedder": 1e-3, "classifier": 1e-3},
    "loss_weights": {"metric_loss": 1.0, "classifier_loss": 0.5},
    "batch_size": 32,
    "iterations_per_epoch": 4,
    "num_epochs": 1,
}


def make_loader(n_batches, batch_size, num_classes):
    g = torch.Generator().manual_seed(1)
    for _ in range(n_batches):
        labels = torch.randint(0, num_classes, (batch_size,), generator=g)
        images = torch.randn(batch_size, 3, 32, 32, generator=g) + labels.view(-1, 1, 1, 1) * 0.1
        yield images, labels


def main():
    torch.manual_seed(0)
    trunk = ConvTrunk()
    embedder = MLP([trunk.out_dim, config["embedding_size"]])
    classifier = MLP([config["embedding_size"], config["classifier_hidden"], config["num_classes"]])
    models = {"trunk": trunk, "embedder": embedder, "classifier": classifier}
    optimizers = {k: torch.optim.Adam(m.parameters(), lr=config["lr"][k]) for k, m in models.items()}
    loss_funcs = {"metric_loss": ContrastiveLoss(), "classifier_loss": torch.nn.CrossEntropyLoss()}

    trainer = TRAINERS[config["trainer"]](models, optimizers, loss_funcs, config["loss_weights"],
                                          config["iterations_per_epoch"])
    loader = make_loader(config["iterations_per_epoch"], config["batch_size"], config["num_classes"])
    trainer.train(loader, config["num_epochs"])


if __name__ == "__main__":
    main()
