OPTS = {
    "name": "three_view_lpn",
    "backbone": "resnet18",
    "nclasses": 30,
    "block": 2,
    "droprate": 0.5,
    "views": 2,
    "h": 128,
    "w": 128,
}
