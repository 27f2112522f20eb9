import torch

from models import TransE
from training import SLCWATrainingLoop

CONFIG = {
    "dataset": {"num_entities": 40, "num_relations": 5, "num_triples": 200},
    "model": "TransE",
    "model_kwargs": {
        "embedding_dim": 16,
        "scoring_fct_norm": 1,
        "entity_regularizer": "lp",
        "entity_regularizer_kwargs": {"weight": 0.5, "p": 2.0},
    },
    "optimizer_kwargs": {"lr": 0.05},
    "training_kwargs": {"num_epochs": 5, "batch_size": 32},
    "random_seed": 7,
}

MODELS = {"TransE": TransE}


def pipeline(config):
    torch.manual_seed(config["random_seed"])
    ds = config["dataset"]
    h = torch.randint(0, ds["num_entities"], (ds["num_triples"],))
    r = torch.randint(0, ds["num_relations"], (ds["num_triples"],))
    t = torch.randint(0, ds["num_entities"], (ds["num_triples"],))
    triples = torch.stack([h, r, t], dim=1)

    model = MODELS[config["model"]](ds["num_entities"], ds["num_relations"], **config["model_kwargs"])
    optimizer = torch.optim.SGD(model.parameters(), **config["optimizer_kwargs"])
    loop = SLCWATrainingLoop(model, triples, ds["num_entities"], optimizer)
    losses = loop.train(**config["training_kwargs"])
    print("losses:", [round(x, 4) for x in losses])
    return model


if __name__ == "__main__":
    pipeline(CONFIG)
