import torch.nn as nn

# Activations that export cleanly to fixed-point accelerators.
ACTIVATIONS = {
    "hardswish": lambda: nn.Hardswish(inplace=True),
    "relu": lambda: nn.ReLU(inplace=True),
    "relu6": lambda: nn.ReLU6(inplace=True),
}


def lite_classifier(in_features, hidden, num_classes, act, dropout):
    return nn.Sequential(
        nn.Linear(in_features, hidden),
        ACTIVATIONS[act](),
        nn.Dropout(p=dropout, inplace=True),
        nn.Linear(hidden, num_classes),
    )


def convert_to_lite(model: nn.Module, act: str = "relu", dropout: float = 0.2) -> int:
    """Replace Hardswish activations by a quantisation friendly activation and
    rebuild the classifier around it."""
    if act not in ACTIVATIONS:
        raise KeyError(f"unsupported activation {act!r}")
    replaced = 0
    for parent in model.features.modules():
        for name, child in parent.named_children():
            if isinstance(child, nn.Hardswish):
                setattr(parent, name, ACTIVATIONS[act]())
                replaced += 1
    old = model.classifier
    model.classifier = lite_classifier(old[0].in_features, old[0].out_features, old[-1].out_features, act, dropout)
    return replaced
