from collections.abc import Iterable


def set_freeze_by_layer_names(model, layer_names, freeze=True):
    if isinstance(layer_names, str) or not isinstance(layer_names, Iterable):
        layer_names = [layer_names]
    for name, child in model.named_children():
        if name not in layer_names:
            continue
        print(f"set freeze for layer {name} as: {freeze}")
        for param in child.parameters():
            param.requires_grad = not freeze


def apply_schedule(model, schedule, epoch):
    for entry in schedule:
        if entry["epoch"] == epoch:
            set_freeze_by_layer_names(model, entry["layers"], freeze=entry["freeze"])
