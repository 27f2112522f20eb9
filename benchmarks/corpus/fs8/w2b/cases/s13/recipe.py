RECIPE = {
    "epochs": 3,
    "steps_per_epoch": 5,
    "lr": 0.05,
    "modifiers": [
        {"type": "TrainableParamsModifier", "params": ["encoder."], "trainable": False,
         "start_epoch": 1},
    ],
}
