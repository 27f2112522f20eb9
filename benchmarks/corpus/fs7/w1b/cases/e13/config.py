MODEL = {
    "backbone": "CSPDarknet53",
    "stem_channels": 16,
    "feature_channels": [32, 64, 128],
    "num_blocks": [1, 2, 2],
    "activate": "relu",
    "num_classes": 3,
    "anchors_per_scale": 3,
}

TRAIN = {
    "batch_size": 4,
    "img_size": 64,
    "lr_init": 1e-4,
    "epochs": 2,
    "iters_per_epoch": 3,
}
