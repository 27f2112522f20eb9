CFG = {
    "backbone": "resnet18",
    "num_classes": 20,
    "embed_dim": 128,
    "usam": True,
    "polish": True,
    "lr": 0.01,
    "momentum": 0.9,
    "batch_size": 4,
    "img_size": 96,
    "steps": 2,
    "seed": 7,
}
