from torch import nn


class SaveFeatures:
    features = None

    def __init__(self, module: nn.Module):
        self.hook = module.register_forward_hook(self.hook_fn)

    def hook_fn(self, module, inp, output):
        self.features = output

    def close(self):
        self.hook.remove()


def block_ends(features: nn.Sequential):
    return [i - 1 for i, layer in enumerate(features) if isinstance(layer, nn.MaxPool2d)]


def attach(features: nn.Sequential, idxs):
    return [SaveFeatures(features[i]) for i in idxs]
